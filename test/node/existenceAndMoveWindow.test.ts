/**
 * What an outside review of today's changes found still open, through n8n-core's engine over real
 * HTTP to the emulator (another writer and a gateway act from the emulator's hooks):
 * - File → Get Info still takes any 404 for "not there", so with Error If Missing off a gateway's
 *   JSON 404 makes it say exists: false of a file that exists (the If-node pattern its own
 *   description offers then uploads over it);
 * - Delete (and Move's delete of its source) takes a retry's 404 from a gateway for "done by an earlier attempt";
 * - Move lists the destination again between the source's last listing and its delete, so a newer
 *   version of the source written during that listing is deleted although the docs say the source
 *   is listed "just before the delete".
 */
import type { INodeParameters } from 'n8n-workflow';

import type { HookCall } from '../emulator/history';
import { BUCKET, runFileStorage, storedText, useEmulator } from './support';

const emulator = useEmulator();
const HERE = { name: BUCKET.bucketName, region: BUCKET.region };
const byKey = (value: string) => ({ __rl: true, mode: 'key', value });
const read = async (key: string) => await storedText(emulator(), key);
const isList = (call: HookCall, prefix: string) => call.op === 'list' && call.query.get('prefix') === prefix;

async function put(key: string, text: string, writer: string) {
	await emulator().adversary.put(HERE, key, Buffer.from(text), {
		visibility: 'private',
		contentType: 'text/plain',
		writer,
	});
}

/** What an API gateway (Kong) answers while its routes are rebuilt: a JSON 404 that is not the API's. */
const GATEWAY_404 = {
	status: 404,
	headers: { 'Content-Type': 'application/json; charset=utf-8', Server: 'kong/3.6.1' },
	body: JSON.stringify({ message: 'no Route matched with those values' }),
};

beforeEach(() => emulator().adversary.setHooks(undefined));

describe("File → Get Info says exists: false only on the API's own 'not found'", () => {
	it("a gateway's JSON 404 for the file's link, with Error If Missing off: never exists: false of a file that is there", async () => {
		const key = 'gi-gw/contract.txt';
		await put(key, 'signed contract, the only copy', 'setup');
		let blipped = false;
		emulator().adversary.setHooks({
			before: async (call: HookCall) => {
				if (blipped || call.op !== 'signedUrl') return undefined;
				blipped = true;
				return GATEWAY_404;
			},
		});
		const parameters: INodeParameters = {
			resource: 'file',
			operation: 'getInfo',
			fileKey: byKey(key),
			options: { errorIfMissing: false },
		};
		const result = await runFileStorage(emulator(), parameters, { continueOnFail: true });
		emulator().adversary.setHooks(undefined);
		expect(blipped).toBe(true);
		expect(await read(key)).toBe('signed contract, the only copy');
		// An If node on `exists` would now upload over the only copy.
		expect(result.items[0]?.json.exists).not.toBe(false);
	}, 30_000);
});

describe('File → Move: the source is the last thing listed before it is deleted', () => {
	it('a newer version of the source written while the destination is listed again before the delete survives', async () => {
		const source = 'mw/report.txt';
		const destination = 'mw-to/report.txt';
		await put(source, 'version one', 'setup');
		await new Promise((resolve) => setTimeout(resolve, 5000));
		let destinationLists = 0;
		let struck = false;
		emulator().adversary.setHooks({
			before: async (call) => {
				if (!isList(call, destination)) return undefined;
				destinationLists += 1;
				// The destination is listed once by the copy's check, and once more before the source's delete
				// (today after the source's last listing, so this write is not seen by it).
				if (!struck && destinationLists >= 2) {
					struck = true;
					await put(source, 'version two, much longer: the newest work', 'writer');
				}
				return undefined;
			},
		});
		const result = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'move', fileKey: byKey(source), destinationKey: destination },
			{ continueOnFail: true },
		);
		emulator().adversary.setHooks(undefined);
		expect(struck).toBe(true);
		void result;
		expect([await read(source), await read(destination)]).toContain('version two, much longer: the newest work');
	}, 30_000);
});

describe("File → Delete reports deleted only on the service's word, never on a gateway's 404 after a retry", () => {
	it("a first attempt that fails (HTTP 500) and a retry answered by a gateway's JSON 404: the file still there is not reported deleted", async () => {
		const key = 'del-gw/invoice.txt';
		await put(key, 'the invoice', 'setup');
		let deletes = 0;
		emulator().adversary.setHooks({
			before: async (call: HookCall) => {
				if (call.op !== 'delete') return undefined;
				deletes += 1;
				// The service fails before deleting anything; the retry meets the gateway rebuilding its routes.
				if (deletes === 1) return { status: 500, body: JSON.stringify({ error: 'Internal server error' }) };
				if (deletes === 2) return GATEWAY_404;
				return undefined;
			},
		});
		const result = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'delete', fileKey: byKey(key), options: { maxRetries: 2 } },
			{ continueOnFail: true },
		);
		emulator().adversary.setHooks(undefined);
		expect(deletes).toBeGreaterThanOrEqual(2);
		const stillThere = (await read(key)) === 'the invoice';
		if (stillThere) expect(result.items[0]?.json.deleted).not.toBe(true);
	}, 30_000);
});
