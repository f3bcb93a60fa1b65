import { copyChangedBeforeDelete, existenceOf, sourceDeleteDecision } from '../../files/proof';
import { findStoredRecord, type StoredRecord } from '../../files/storedRecord';
import { versionCheck } from '../../files/versionDelete';
import type { Item } from '../../item';
import { deleteFile, withheldResend, type ResendCheck } from '../../transport/api';
import { describeRef, type Copied } from './copyFile';
import { failedAnswer } from '../../transport/apiAnswer';
import { MOST_CHECKS } from '../../transport/looks';

function wordsOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** The source went between the copy and its delete: nothing is left to delete, and both exist no more. */
function sourceGone(item: Item, copied: Copied) {
	return item.fail(
		`Move: the copy ${describeRef(copied.to)} is complete and checked, but the source ${describeRef(copied.from)} is no longer there`,
		'Something else deleted or moved the source after it was copied: another item of this run moving the same file, or another workflow. The copy holds the source as it was read; there is nothing left to delete.',
	);
}

const DELETE_IT = ' Delete the source yourself, or run File → Delete on it.';

function bothExist(item: Item, copied: Copied, message: string, why = '', next = DELETE_IT) {
	return item.fail(
		message,
		`Both files exist now: the source ${describeRef(copied.from)} and the copy ${describeRef(copied.to)}.${why}${next}`,
	);
}

/** The listing's record of `ref` now; a listing that fails keeps the source, saying both exist. */
async function recordNow(item: Item, copied: Copied, ref: Copied['from'], asked: string) {
	return await findStoredRecord(copied.client, ref, ref.key).catch((error: unknown) => {
		throw bothExist(
			item,
			copied,
			`Move: the copy is complete and checked, but ${asked} could not be asked: ${wordsOf(error)}`,
			' The source was not deleted.',
		);
	});
}

/**
 * The destination listed again just before the delete: it must still be the record the copy's
 * check (or a re-run's comparison) proved to hold the source's bytes. A write there after this
 * listing, or one of the same size in the same second, cannot be seen: the API has no conditional
 * delete (docs/api-choices.md, "What the node cannot prove").
 */
async function refuseChangedCopy(item: Item, copied: Copied): Promise<void> {
	const now = await recordNow(item, copied, copied.to, 'whether it is still at the destination unchanged');
	const changed = copyChangedBeforeDelete(copied.destinationRecord, now);
	if (!changed) return;
	throw bothExist(
		item,
		copied,
		`Move: the source ${describeRef(copied.from)} was not deleted: ${changed}`,
		" The destination may no longer hold the source's bytes, so the source was kept.",
		' Check the destination (File → Get Info, or Download) before deleting either; run the Move again with Replace Existing File on to move the source.',
	);
}

/** Whether a failed delete is the API's own "not found" (its JSON error), not a proxy's page or anything else. */
function deletedAlready(error: unknown): boolean {
	return existenceOf(failedAnswer(error)) === 'absent';
}

/**
 * What a repeat of the source's delete acts on, asked again before each repeat (and before its first
 * send when anything waited since the source was listed, `lookedAt`): the source still the version the
 * delete was decided on, and the destination still the copy that was checked. `changed` names which
 * one was not, for the last time it was asked.
 */
function beforeRepeat(copied: Copied, decided: StoredRecord, lookedAt: number) {
	const changed = { at: 'source' as 'source' | 'destination' };
	const source = versionCheck(copied.from, copied.from.key, decided, lookedAt);
	const check: ResendCheck = {
		guards: 'delete',
		lookedAt,
		ask: async (via) => {
			changed.at = 'source';
			const decision = await source.ask(via);
			if (decision !== 'send') return decision;
			const copy = await findStoredRecord(via, copied.to, copied.to.key);
			if (!copyChangedBeforeDelete(copied.destinationRecord, copy)) return 'send';
			changed.at = 'destination';
			return 'keep';
		},
	};
	return { check, changed };
}

/**
 * A delete of the source withheld by the check in its slot: a repeat (the first may have been carried
 * out), or the first send after it waited for the run's pool (nothing was sent). Why, and what is where.
 */
function notSentAgain(item: Item, copied: Copied, error: unknown, changedAt: 'source' | 'destination') {
	const { from, to } = copied;
	const withheld = withheldResend(error);
	const found = withheld?.found;
	if (found === 'gone') return sourceGone(item, copied);
	if (found === 'unsettled') return keptWhileWaiting(item, copied, withheld?.earlierMayHaveRun === true);
	if (withheld?.first === true) return notSentAfterWait(item, copied, error, changedAt);
	if (found === 'keep' && changedAt === 'source') {
		return item.fail(
			`Move: the source ${describeRef(from)} changed while its delete was retried: a newer version is kept there`,
			`Its delete had to be sent again (the first got no answer, a 5xx or a request to wait); listed again first, the source was another version than the one copied, so it was not deleted. The copy ${describeRef(to)} holds the version copied. Run the Move again to move the newer version (with Replace Existing File on).`,
		);
	}
	const why =
		found === 'keep'
			? `the destination ${describeRef(to)} changed while it was retried (another writer stored a file there)`
			: `whether it was carried out could not be checked: ${wordsOf(error)}`;
	return item.fail(
		`Move: the delete of the source ${describeRef(from)} got no answer and was not sent again: ${why}`,
		'The first delete may have been carried out. Check the source and the destination (File → Get Info) before deleting either.',
	);
}

/** Each check before the delete waited (transport/looks.ts): none proves the source and the copy unchanged. */
function keptWhileWaiting(item: Item, copied: Copied, earlierMayHaveRun: boolean) {
	const { from, to } = copied;
	const where = earlierMayHaveRun
		? 'An earlier attempt of the delete may have been carried out (its answer was lost, or a 5xx).'
		: `Both files exist now: the source ${describeRef(from)} and the copy ${describeRef(to)}.`;
	return item.fail(
		`Move: the source ${describeRef(from)} was not deleted: the service asked the node to wait during each of ${MOST_CHECKS} checks of the source and the copy right before the delete, so none showed them as they are when it would go`,
		`${where} Once the service is less busy, check the source and the destination (File → Get Info), then delete the source with File → Delete, or run the Move again (with Replace Existing File on).`,
	);
}

/** Something waited since the source was listed, and the check in the delete's slot withheld it: nothing was deleted. */
function notSentAfterWait(item: Item, copied: Copied, error: unknown, changedAt: 'source' | 'destination') {
	const { from, to } = copied;
	const found = withheldResend(error)?.found;
	const why =
		found !== 'keep'
			? `whether the source and the copy were unchanged could not be checked: ${wordsOf(error)}`
			: changedAt === 'source'
				? 'a newer version of the source was stored while the node waited, and it is kept'
				: `the destination ${describeRef(to)} changed while the node waited (another writer stored a file there)`;
	return bothExist(
		item,
		copied,
		`Move: the source ${describeRef(from)} was not deleted: ${why}`,
		" The node had to wait after it listed the source (the service asked it to wait, a request was repeated, or every slot of the run's request pool was busy), so both were listed again right before the delete.",
		' Check the source and the destination (File → Get Info), then run the Move again (with Replace Existing File on) to move the source.',
	);
}

/**
 * Move's last step: the source goes only after a checked copy, only while the service still
 * records the version that was copied (a file replaced during the copy is a newer version, which
 * the copy does not hold), and only while the destination is still the copy that was checked.
 * A delete sent again (its answer lost, a 5xx), or sent after anything waited since the source was
 * listed (the destination's listing waiting out a Retry-After, the delete's wait for its slot of the
 * run's pool: transport/looks.ts), goes out only while both still hold (beforeRepeat, asked in its slot).
 * A failed delete says both exist; a source already gone (the API's own 404) says so.
 */
export async function deleteSourceAfterCopy(item: Item, made: Copied) {
	// The last look begins here: a wait of any of its requests or the delete's (the destination's listing
	// too) is checked for, counted apart from the item's other requests (a Folder → Move's other files).
	const copied = { ...made, client: made.client.forLook() };
	const { from } = copied;
	const lookedAt = copied.client.waits.mark();
	const now = await recordNow(item, copied, from, 'whether the source is still the version copied');
	const decision = sourceDeleteDecision(copied.sourceRecord, now);
	if (decision === 'gone' || !now) throw sourceGone(item, copied);
	if (decision === 'keep') {
		throw bothExist(
			item,
			copied,
			`Move: the source ${describeRef(from)} was replaced while it was copied, so it was not deleted`,
			' The copy holds the version that was read, the source the newer one. Run the Move again to move the newer version (with Replace Existing File on).',
		);
	}
	await refuseChangedCopy(item, copied);
	const repeat = beforeRepeat(copied, now, lookedAt);
	try {
		return await deleteFile(copied.client, from, from.key, repeat.check);
	} catch (error) {
		if (withheldResend(error)) throw notSentAgain(item, copied, error, repeat.changed.at);
		if (deletedAlready(error)) throw sourceGone(item, copied);
		throw bothExist(
			item,
			copied,
			`Move: the copy is complete and checked, but deleting the source failed: ${wordsOf(error)}`,
		);
	}
}
