/**
 * What an outside review of today's changes found still open, through n8n-core's engine over real
 * HTTP to the emulator (another writer and a gateway act from the emulator's hooks):
 * - File → Get Info still takes any 404 for "not there", so with Error If Missing off a gateway's
 *   JSON 404 makes it say exists: false of a file that exists (the If-node pattern its own
 *   description offers then uploads over it);
 * - Delete (and Move's delete of its source) takes a retry's 404 from a gateway for "done by an earlier attempt";
 * - a CDN that sends Age: 0 with an explicit MISS on every answer it fetched from the origin (and no MD5 ETag):
 *   Move takes it as an answer no cache kept and moves the file, not refusing every public Move;
 * - Move lists the destination again between the source's last listing and its delete, so a newer
 *   version of the source written during that listing is deleted although the docs say the source
 *   is listed "just before the delete".
 */
import type { INodeParameters } from 'n8n-workflow';

import type { HookCall } from '../emulator/history';
import { HERE, byKey, putText, runFileStorage, storedText, useEmulator } from './support';

const emulator = useEmulator();
const read = async (key: string) => await storedText(emulator(), key);
const isList = (call: HookCall, prefix: string) => call.op === 'list' && call.query.get('prefix') === prefix;

const put = async (key: string, text: string, writer: string) => await putText(emulator(), key, text, writer);

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
				if (deletes === 1) {
					return {
						status: 500,
						headers: { 'Content-Type': 'application/json' },
						body: JSON.stringify({ error: 'Internal server error' }),
					};
				}
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

/**
 * A CDN that sends `Age: 0` and a MISS (`X-Cache: MISS`, or RFC 9211's `Cache-Status` miss forward) with
 * every answer it fetched from the origin (Varnish, Fastly, many CDNs do), and no MD5 ETag (a multipart
 * copy's ETag is not one), answering from the origin here.
 */
function ageZeroCdn(missMark: Record<string, string>): { answered: () => number } {
	let answered = 0;
	emulator().adversary.setHooks({
		before: async (call: HookCall) => {
			if (call.op !== 'cdn') return undefined;
			const prefix = `/f/${emulator().accessId}/`;
			const key = decodeURIComponent(call.path.slice(call.path.indexOf(prefix) + prefix.length));
			const stored = await emulator().readObject(HERE.name, HERE.region, key);
			if (!stored) return undefined;
			answered += 1;
			return {
				status: 200,
				headers: {
					'Content-Type': stored.contentType,
					'Content-Length': String(stored.body.length),
					'Cache-Control': 'private, max-age=0',
					Date: new Date().toUTCString(),
					// The file's own Last-Modified, passed on (an undated answer is never copied).
					'Last-Modified': new Date(stored.lastModified).toUTCString(),
					Age: '0',
					...missMark,
				},
				body: call.method === 'HEAD' ? Buffer.alloc(0) : stored.body,
			};
		},
	});
	return { answered: () => answered };
}

/** Moves a file written long before through ageZeroCdn(missMark): it must be moved, not refused as kept. */
async function moveThroughMissCdn(missMark: Record<string, string>, folder: string): Promise<void> {
	const source = `${folder}/report.txt`;
	const destination = `${folder}-to/report.txt`;
	await put(source, 'a report written a while ago', 'setup');
	await new Promise((resolve) => setTimeout(resolve, 6500));
	const cdn = ageZeroCdn(missMark);
	const result = await runFileStorage(
		emulator(),
		{ resource: 'file', operation: 'move', fileKey: byKey(source), destinationKey: destination },
		{ continueOnFail: true },
	);
	emulator().adversary.setHooks(undefined);
	expect(cdn.answered()).toBeGreaterThan(0);
	expect(result.items[0]?.json.error).toBeUndefined();
	expect(await read(destination)).toBe('a report written a while ago');
	expect(await read(source)).toBeUndefined();
}

describe('File → Move through a CDN that sends Age: 0 and an explicit MISS with every answer from the origin', () => {
	it('Age: 0 / X-Cache: MISS: a file written long before is moved, not refused as a kept answer', async () => {
		await moveThroughMissCdn({ 'X-Cache': 'MISS' }, 'age0');
	}, 30_000);

	it('Age: 0 / Cache-Status fwd=uri-miss, fwd-status=200 (RFC 9211): a file written long before is moved', async () => {
		await moveThroughMissCdn({ 'Cache-Status': 'ExampleCDN; fwd=uri-miss; fwd-status=200' }, 'age0rfc');
	}, 30_000);
});

describe("File → Move says its source is deleted only on the service's word", () => {
	it("the source's delete fails once (HTTP 500), its retry meets a gateway's JSON 404: a source still there is not reported deleted", async () => {
		const source = 'mv-gw/report.txt';
		await put(source, 'the report', 'setup');
		await new Promise((resolve) => setTimeout(resolve, 5000));
		let deletes = 0;
		emulator().adversary.setHooks({
			before: async (call: HookCall) => {
				if (call.op !== 'delete') return undefined;
				deletes += 1;
				if (deletes === 1) {
					return {
						status: 500,
						headers: { 'Content-Type': 'application/json' },
						body: JSON.stringify({ error: 'Internal server error' }),
					};
				}
				if (deletes === 2) return GATEWAY_404;
				return undefined;
			},
		});
		const result = await runFileStorage(
			emulator(),
			{
				resource: 'file',
				operation: 'move',
				fileKey: byKey(source),
				destinationKey: 'mv-gw-to/report.txt',
				options: { maxRetries: 2 },
			},
			{ continueOnFail: true },
		);
		emulator().adversary.setHooks(undefined);
		expect(deletes).toBeGreaterThanOrEqual(2);
		if ((await read(source)) === 'the report') expect(result.items[0]?.json.sourceDeleted).not.toBe(true);
	}, 30_000);
});
