/**
 * Move's delete of its source is sent again only on proof (docs/reliability.md, "Move's delete sent
 * again"). A delete whose answer is lost, or that a gateway answers 5xx, may have been carried out;
 * a version another writer stores at the key while the node waits to send it again is not the one
 * copied. Before each repeat the node lists the key again: the record the delete was decided on →
 * sent again; nothing there → done; another version → kept, and the error says so. Through
 * n8n-core's engine over real HTTP to the emulator; the other writer and the gateway act from the
 * emulator's hooks.
 */
import type { HookCall } from '../emulator/history';
import { HERE, byKey, putText, runFileStorage, storedText, useEmulator } from './support';

const emulator = useEmulator();
const read = async (key: string) => await storedText(emulator(), key);

const put = async (key: string, text: string, writer: string) => await putText(emulator(), key, text, writer);

const OLDER = 'version 1 of the report';
const NEWER = 'version 2 of the report, written by the app while the node waited to send its delete again';
/** A Move waits out a source written moments before it is read: the tests let it settle first. */
const settle = async () => await new Promise((resolve) => setTimeout(resolve, 5000));

type FirstDelete = 'cut' | 'gateway' | 'refused' | 'unforwarded';

/**
 * The first DELETE of `source` fails as `how` says: 'cut' (carried out, the answer lost), 'gateway'
 * (carried out, a 504), 'refused' (503 with Retry-After, not carried out), 'unforwarded' (a 502 from
 * a gateway that never passed it on). `newer`: what the app stores at the key while the node waits.
 */
function firstDeleteFails(source: string, how: FirstDelete, newer?: string) {
	const seen = { deletes: 0, newerStored: false };
	const storeNewer = async () => {
		if (newer === undefined) return;
		await put(source, newer, 'app');
		seen.newerStored = true;
	};
	if (how === 'cut') emulator().setFaults([{ operation: 'delete', dropResponse: true, nth: [1] }]);
	emulator().adversary.setHooks({
		before: async (call: HookCall) => {
			if (call.op !== 'delete' || call.query.get('key') !== source) return undefined;
			seen.deletes += 1;
			if (seen.deletes !== 1 || (how !== 'refused' && how !== 'unforwarded')) return undefined;
			await storeNewer();
			const status = how === 'refused' ? 503 : 502;
			const body = JSON.stringify({ error: 'Service Unavailable', message: 'Try again shortly' });
			return { status, headers: { 'Content-Type': 'application/json', 'Retry-After': '1' }, body };
		},
		after: async (call: HookCall, reply: { status: number; body: unknown }) => {
			if (call.op !== 'delete' || call.query.get('key') !== source || seen.deletes !== 1) return;
			// The service carried the delete out; then, during the node's backoff, the app stores a newer version.
			await storeNewer();
			if (how !== 'gateway') return;
			reply.status = 504;
			reply.body = { error: 'Gateway Timeout', message: 'The upstream server did not answer in time' };
		},
	});
	return seen;
}

beforeEach(() => {
	emulator().adversary.setHooks(undefined);
	emulator().setFaults([]);
});

afterEach(() => {
	emulator().adversary.setHooks(undefined);
	emulator().setFaults([]);
});

async function moveFile(source: string, destination: string) {
	return await runFileStorage(
		emulator(),
		{ resource: 'file', operation: 'move', fileKey: byKey(source), destinationKey: destination },
		{ continueOnFail: true },
	);
}

describe('File → Move: a delete of the source sent again never deletes a version it did not copy', () => {
	it.each([
		['its first answer was lost (the connection cut after the service deleted the file)', 'cut'],
		['a gateway answered 504 after the service deleted the file', 'gateway'],
		['the service answered 503 with Retry-After (not carried out)', 'refused'],
	] as Array<[string, FirstDelete]>)(
		'the source delete failed as %s: a newer version written before the retry is kept, and the error says so',
		async (_, how) => {
			const source = `mv-retry-${how}/report.txt`;
			const destination = `mv-retry-${how}-to/report.txt`;
			await put(source, OLDER, 'setup');
			await settle();
			const seen = firstDeleteFails(source, how, NEWER);
			const result = await moveFile(source, destination);
			emulator().adversary.setHooks(undefined);
			expect(seen.newerStored).toBe(true);
			expect(await read(destination)).toBe(OLDER);
			// The newer version is still at the source (the copy holds version 1); what the node reported beside it.
			const outcome = { source: await read(source), reported: result.items[0]?.json };
			expect(outcome).toEqual(expect.objectContaining({ source: NEWER }));
			expect(outcome.reported?.sourceDeleted).not.toBe(true);
			expect(String(outcome.reported?.error)).toMatch(
				/source .* changed while its delete was retried: a newer version is kept there/,
			);
			expect(seen.deletes).toBe(1);
		},
		40_000,
	);

	it('the first delete was carried out and its answer lost, nothing written since: done, without sending it blind again', async () => {
		const source = 'mv-retry-done/report.txt';
		await put(source, OLDER, 'setup');
		await settle();
		const seen = firstDeleteFails(source, 'cut');
		const result = await moveFile(source, 'mv-retry-done-to/report.txt');
		expect(result.items[0]?.json.error).toBeUndefined();
		expect(result.items[0]?.json.sourceDeleted).toBe(true);
		expect(await read(source)).toBeUndefined();
		expect(await read('mv-retry-done-to/report.txt')).toBe(OLDER);
		expect(seen.deletes).toBe(1);
	}, 40_000);

	it('a gateway 502 that never reached the service, the source unchanged: the delete is sent again and the Move completes', async () => {
		const source = 'mv-retry-again/report.txt';
		await put(source, OLDER, 'setup');
		await settle();
		const seen = firstDeleteFails(source, 'unforwarded');
		const result = await moveFile(source, 'mv-retry-again-to/report.txt');
		expect(result.items[0]?.json.error).toBeUndefined();
		expect(result.items[0]?.json.sourceDeleted).toBe(true);
		expect(await read(source)).toBeUndefined();
		expect(await read('mv-retry-again-to/report.txt')).toBe(OLDER);
		expect(seen.deletes).toBe(2);
	}, 40_000);
});

describe("File → Move: a listing that does not show the source is not taken for the service's word that it is gone", () => {
	it('the source left out of the listings after a refused delete (a lagging or shifting listing): not reported deleted, kept', async () => {
		const source = 'mv-retry-unlisted/report.txt';
		await put(source, OLDER, 'setup');
		await settle();
		// The first delete refused (503, not carried out); from then on, the service's listings leave
		// the source out though it still stores it (a count that lags, or a page that shifted).
		const seen = { deletes: 0 };
		let hidden = 0;
		emulator().adversary.setHooks({
			before: async (call: HookCall) => {
				if (call.op !== 'delete' || call.query.get('key') !== source) return undefined;
				seen.deletes += 1;
				if (seen.deletes !== 1) return undefined;
				const body = JSON.stringify({ error: 'Service Unavailable', message: 'Try again shortly' });
				return { status: 503, headers: { 'Content-Type': 'application/json', 'Retry-After': '1' }, body };
			},
			after: async (call: HookCall, reply: { status: number; body: unknown }) => {
				if (call.op !== 'list' || seen.deletes === 0) return;
				const data = (reply.body as { data?: { contents?: { children?: Array<{ path: string }> } } }).data;
				const children = data?.contents?.children;
				if (!children) return;
				const kept = children.filter((entry) => entry.path !== source);
				hidden += children.length - kept.length;
				data.contents!.children = kept;
			},
		});
		const result = await moveFile(source, 'mv-retry-unlisted-to/report.txt');
		emulator().adversary.setHooks(undefined);
		expect(hidden).toBeGreaterThan(0);
		expect(await read('mv-retry-unlisted-to/report.txt')).toBe(OLDER);
		// The source is still stored: what the node reported must say so, never "deleted".
		const outcome = { source: await read(source), reported: result.items[0]?.json };
		expect(outcome.source).toBe(OLDER);
		expect(outcome.reported?.sourceDeleted).not.toBe(true);
		expect(String(outcome.reported?.error)).toMatch(/not sent again/);
	}, 40_000);
});

describe('Folder → Move: a delete of a source file sent again never deletes a version it did not copy', () => {
	it('the answer of a file’s delete lost, a newer version written before the retry: kept, that file reported failed', async () => {
		const source = 'fmv-retry/report.txt';
		await put(source, OLDER, 'setup');
		await settle();
		const seen = firstDeleteFails(source, 'cut', NEWER);
		const result = await runFileStorage(
			emulator(),
			{
				resource: 'folder',
				operation: 'move',
				folder: { __rl: true, mode: 'path', value: 'fmv-retry/' },
				destinationFolder: { __rl: true, mode: 'path', value: 'fmv-retry-to/' },
			},
			{ continueOnFail: true },
		);
		expect(seen.newerStored).toBe(true);
		expect(await read(source)).toBe(NEWER);
		expect(await read('fmv-retry-to/report.txt')).toBe(OLDER);
		const reported = result.items[0]?.json;
		expect([reported?.status, reported?.sourceDeleted]).toEqual(['failed', undefined]);
		expect(String(reported?.error)).toMatch(/changed while its delete was retried: a newer version is kept there/);
		expect(seen.deletes).toBe(1);
	}, 40_000);
});
