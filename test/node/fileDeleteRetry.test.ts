/**
 * File → Delete deletes the file at its key, whatever version is there (docs/api-choices.md, "File → Delete sent
 * again"). Move's delete of its source and the delete of a faulty copy act on a version the node read or stored, and
 * a repeat of them is checked first; File → Delete names no version: the user asked for the key to hold no file. A
 * repeat after an attempt with an unknown outcome (a gateway's 504, a cut connection) deletes what the key holds when
 * it goes out, as the first attempt deleted what it held then, and the output says which attempt did the work.
 * Through n8n-core's engine over real HTTP to the emulator; the other writer and the gateway act from its hooks.
 */
import type { HookCall } from '../emulator/history';
import { byKey, putText, runFileStorage, storedText, useEmulator } from './support';

const emulator = useEmulator();

const OLDER = 'version 1 of the report, the one there when the delete was asked';
const NEWER = 'version 2 of the report, stored by the app after the first attempt deleted version 1';

type FirstDelete = 'gateway' | 'cut';

/**
 * The first DELETE of `key` is carried out, and its answer is a gateway's 504 or lost (`how`); the app then stores
 * `newer` there (when given), before the node's repeat goes out.
 */
function firstDeleteCarriedOut(key: string, how: FirstDelete, newer?: string) {
	const seen = { deletes: 0, newerStored: false };
	if (how === 'cut') emulator().setFaults([{ operation: 'delete', dropResponse: true, nth: [1] }]);
	emulator().adversary.setHooks({
		after: async (call: HookCall, reply: { status: number; body: unknown }) => {
			if (call.op !== 'delete' || call.query.get('key') !== key) return;
			seen.deletes += 1;
			if (seen.deletes !== 1) return;
			if (newer !== undefined) {
				await putText(emulator(), key, newer, 'app');
				seen.newerStored = true;
			}
			if (how !== 'gateway') return;
			reply.status = 504;
			reply.body = { error: 'Gateway Timeout', message: 'The upstream server did not answer in time' };
		},
	});
	return seen;
}

afterEach(() => {
	emulator().adversary.setHooks(undefined);
	emulator().setFaults([]);
});

async function deleteFile(key: string, typeVersion: number, options = {}) {
	return await runFileStorage(
		emulator(),
		{ resource: 'file', operation: 'delete', fileKey: byKey(key), options },
		{ typeVersion, continueOnFail: true },
	);
}

describe('File → Delete sent again deletes what is at the key when the repeat goes out', () => {
	it.each([
		['a gateway answered 504', 2, 'gateway'],
		['the connection was cut', 2, 'cut'],
		['a gateway answered 504', 3, 'gateway'],
	] as Array<[string, number, FirstDelete]>)(
		'the first attempt was carried out but %s, then another writer stored a file there: the repeat deletes it, reported deleted by that repeat (version %i)',
		async (_, typeVersion, how) => {
			const key = `file-delete-again-${how}-v${typeVersion}/report.txt`;
			await putText(emulator(), key, OLDER, 'setup');
			const seen = firstDeleteCarriedOut(key, how, NEWER);
			const result = await deleteFile(key, typeVersion);
			emulator().adversary.setHooks(undefined);
			expect(seen).toEqual({ deletes: 2, newerStored: true });
			expect(await storedText(emulator(), key)).toBeUndefined();
			expect(result.items.map((item) => item.json)).toEqual([
				expect.objectContaining({ key, deleted: true, doneByEarlierAttempt: false }),
			]);
		},
		40_000,
	);

	it('the first attempt was carried out but a gateway answered 504, nothing stored since: done by that attempt', async () => {
		const key = 'file-delete-again-nothing-since/report.txt';
		await putText(emulator(), key, OLDER, 'setup');
		const seen = firstDeleteCarriedOut(key, 'gateway');
		const result = await deleteFile(key, 2);
		expect(seen.deletes).toBe(2);
		expect(await storedText(emulator(), key)).toBeUndefined();
		expect(result.items.map((item) => item.json)).toEqual([
			expect.objectContaining({ key, deleted: true, doneByEarlierAttempt: true }),
		]);
	}, 40_000);

	it('Max Retries 0 sends the delete once: a file another writer stored after the attempt is kept, the item fails', async () => {
		const key = 'file-delete-once/report.txt';
		await putText(emulator(), key, OLDER, 'setup');
		const seen = firstDeleteCarriedOut(key, 'gateway', NEWER);
		const result = await deleteFile(key, 2, { maxRetries: 0 });
		expect(seen).toEqual({ deletes: 1, newerStored: true });
		expect(await storedText(emulator(), key)).toBe(NEWER);
		expect(result.items.map((item) => item.json.error)).toEqual([expect.stringContaining('504')]);
	}, 40_000);
});
