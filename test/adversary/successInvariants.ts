/**
 * "A reported success is true" for Copy, Move and Upload (invariants.ts has the others): a reported Copy or Move
 * stored bytes the source held at some moment of the run, and kept them; a reported Upload stored its input, and
 * the storage did not keep fewer bytes of it than were sent (an answer that says so is no success).
 */
import { isNodeAct, type Judge } from './invariants';

export function checkSuccess(judge: Judge): void {
	if (judge.scenario.operation === 'upload') uploadSuccessIsTrue(judge);
	else copySuccessIsTrue(judge);
}

/** A reported Copy or Move is of a version the source had during the run, and is stored. */
function copySuccessIsTrue(judge: Judge): void {
	judge.outcome.items.forEach((item, index) => {
		if (!item.ok) return;
		const roles = judge.scenario.items[index];
		if (judge.scenario.operation !== 'copy' && judge.scenario.operation !== 'move') return;
		const [source, destination] = [judge.key(roles[0]), judge.key(roles[1])];
		const copy = judge.versions.find(
			(v) => isNodeAct(v.put) && v.put.key === destination && v.put.md5 === item.json.md5,
		);
		if (!copy) {
			judge.fail(
				'a reported success is true',
				`item ${index} reports a copy (md5 ${String(item.json.md5)}) the node never stored`,
			);
			return;
		}
		if (!judge.sourceMd5s(source, copy.put.seq).has(copy.put.md5)) {
			judge.fail(
				'a reported success is true',
				`item ${index} copied bytes that were not the stored version of '${source}' at any time during the run`,
			);
		}
		if (copy.end?.kind === 'delete' && isNodeAct(copy.end)) {
			judge.fail('a reported success is true', `item ${index} reports a copy the node itself deleted`);
		}
	});
}

/** A reported Upload stored the item's input at its key, and the storage kept all of it. */
function uploadSuccessIsTrue(judge: Judge): void {
	judge.outcome.items.forEach((item, index) => {
		const input = judge.outcome.inputs?.[index];
		if (!item.ok || input === undefined) return;
		const key = judge.key(judge.scenario.items[index][0]);
		const stored = judge.versions.filter((v) => isNodeAct(v.put) && v.put.key === key && v.put.md5 === input);
		if (!stored.length) {
			judge.fail(
				'a reported success is true',
				`item ${index} reports '${key}' uploaded, and the node never stored its input`,
			);
		} else if (stored.every((v) => v.end?.writer === 'client-short')) {
			judge.fail(
				'a reported success is true',
				`item ${index} reports '${key}' uploaded, but the storage kept ${stored[0].end?.size} of its ${stored[0].put.size} bytes and said so`,
			);
		}
	});
}
