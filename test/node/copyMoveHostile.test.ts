/**
 * File → Copy and Move, Folder → Copy and Move, and Upload with Refuse Existing File under a
 * hostile world, through n8n-core's engine over real HTTP to the emulator: other writers, a CDN
 * whose clock runs ahead of the storage's, one CDN location for one key in two buckets, a
 * gateway's JSON 404 in front of the API. Each test names the behaviour it keeps: no byte lost,
 * no file replaced unasked, no status that is not true.
 */
import type { HookCall } from '../emulator/history';
import { runNode } from '../harness';
import { HERE, byKey, credentialsFor, fileItem, runFileStorage, sha256, useEmulator } from './support';

const OTHER = { name: 'other-bucket', region: 'eu-west-1' };
const path = (value: string) => ({ __rl: true, mode: 'path', value });
const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));
const text = (bytes: Buffer | undefined) => bytes?.toString();

/** One emulator for every test; the source's bucket is the first the CDN looks a key up in. */
const emulator = useEmulator({ buckets: [HERE, OTHER] });
const read = async (where: typeof HERE, key: string) =>
	text((await emulator().readObject(where.name, where.region, key))?.body);

async function put(
	where: typeof HERE,
	key: string,
	body: string,
	writer = 'setup',
	visibility: 'public' | 'private' = 'private',
) {
	return await emulator().adversary.put(where, key, Buffer.from(body), {
		visibility,
		contentType: 'text/plain',
		writer,
	});
}

beforeEach(() => {
	emulator().adversary.setHooks(undefined);
	emulator().setFaults([]);
});

describe('Move to the same key in another bucket: the proof that the destination holds the source', () => {
	it.each(['file', 'folder'] as const)(
		'%s Move: a same-size file another writer stores at the destination after the upload is never taken for the copy, the source stays',
		async (resource) => {
			const key = `${resource}-onekey/report.txt`;
			await put(HERE, key, 'AAAA the only copy');
			await sleep(5000);
			let struck = false;
			emulator().adversary.setHooks({
				after: async (call: HookCall) => {
					// The copy is stored in the other bucket; another writer replaces it at once, same size.
					if (struck || call.op !== 'upload' || call.query.get('bucket_name') !== OTHER.name) return;
					struck = true;
					await put(OTHER, key, 'BBBB other writer!', 'other');
				},
			});
			const target = { destinationBucket: OTHER.name, destinationRegion: OTHER.region };
			const parameters =
				resource === 'file'
					? { resource, operation: 'move', fileKey: byKey(key), destinationKey: key, options: target }
					: {
							resource,
							operation: 'move',
							folder: path(`${resource}-onekey/`),
							destinationFolder: path(`${resource}-onekey/`),
							options: target,
						};
			const result = await runFileStorage(emulator(), parameters, { continueOnFail: true });
			emulator().adversary.setHooks(undefined);
			// No read of a copy there could be told from the source: the Move is refused before any request.
			expect(struck).toBe(false);
			expect(String(result.items[0]?.json.error)).toMatch(/own path in another bucket/);
			// The source's bytes must still be somewhere; the output must not say the file was moved.
			expect([await read(HERE, key), await read(OTHER, key)]).toContain('AAAA the only copy');
			expect(
				result.items.map((item) => item.json.status ?? (item.json.sourceDeleted ? 'moved' : 'failed')),
			).not.toContain('moved');
		},
		60_000,
	);
});

describe("a CDN whose clock runs ahead of the storage's", () => {
	it('Move never deletes a same-size version written in the second it read an earlier one: the newer version survives', async () => {
		const key = 'skew/status.txt';
		await put(HERE, key, 'STATUS: PENDING');
		await sleep(5000);
		let answered = false;
		emulator().adversary.setHooks({
			before: async (call: HookCall) => {
				if (answered || call.op !== 'cdn' || !call.path.endsWith(`/${key}`)) return undefined;
				answered = true;
				// The CDN fetches version 1 at the top of a second, and the writer stores version 2 in that
				// same second (as the settle wait expects); the CDN's clock runs 10 s ahead of the storage's.
				while (Date.now() % 1000 > 20) await sleep(2);
				const { lastModified } = await put(HERE, key, 'STATUS: RUNNING', 'writer');
				const older = Buffer.from('STATUS: RUNNING');
				await put(HERE, key, 'STATUS: SUCCESS', 'writer');
				return {
					status: 200,
					headers: {
						'Content-Type': 'text/plain',
						'Content-Length': String(older.length),
						'Last-Modified': new Date(lastModified).toUTCString(),
						'Cache-Control': 'private, no-store',
						Date: new Date(Date.now() + 10_000).toUTCString(),
					},
					body: older,
				};
			},
		});
		const result = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'move', fileKey: byKey(key), destinationKey: 'skew-to/status.txt' },
			{ continueOnFail: true },
		);
		emulator().adversary.setHooks(undefined);
		expect(answered).toBe(true);
		// 'STATUS: SUCCESS' is the version the service stores when the Move deletes: it must survive.
		expect([await read(HERE, key), await read(HERE, 'skew-to/status.txt')]).toContain('STATUS: SUCCESS');
		void result;
	}, 60_000);
});

/** What an API gateway (Kong) answers while its routes are being rebuilt: a JSON 404 that is not the API's. */
const GATEWAY_404 = {
	status: 404,
	headers: { 'Content-Type': 'application/json; charset=utf-8', Server: 'kong/3.6.1' },
	body: JSON.stringify({ message: 'no Route matched with those values' }),
};

/** Answers the first signed-link request (the existence check) as the gateway does; the API answers the rest. */
function gatewayBlipOnFirstLink(): () => boolean {
	let blipped = false;
	emulator().adversary.setHooks({
		before: async (call: HookCall) => {
			if (blipped || call.op !== 'signedUrl') return undefined;
			blipped = true;
			return GATEWAY_404;
		},
	});
	return () => blipped;
}

describe('a gateway\'s JSON 404 is not the API\'s "not found"', () => {
	it('Upload with Refuse Existing File never replaces the file already there', async () => {
		const key = 'gw/upload/contract.txt';
		await put(HERE, key, 'signed contract, the only copy');
		const blipped = gatewayBlipOnFirstLink();
		const result = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'upload', key, visibility: 'private', options: { refuseExisting: true } },
			{ items: [fileItem(Buffer.from('draft'), 'contract.txt', 'text/plain')], continueOnFail: true },
		);
		emulator().adversary.setHooks(undefined);
		expect(blipped()).toBe(true);
		expect(await read(HERE, key)).toBe('signed contract, the only copy');
		expect(JSON.stringify(result.items[0]?.json)).toMatch(/error/);
	}, 60_000);

	it('Copy with Replace Existing File off never replaces the file at the destination', async () => {
		const source = 'gw/copy/new.txt';
		const destination = 'gw/copy-to/new.txt';
		await put(HERE, source, 'new draft');
		await put(HERE, destination, 'the approved version, the only copy');
		const blipped = gatewayBlipOnFirstLink();
		const result = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'copy', fileKey: byKey(source), destinationKey: destination },
			{ continueOnFail: true },
		);
		emulator().adversary.setHooks(undefined);
		expect(blipped()).toBe(true);
		expect(await read(HERE, destination)).toBe('the approved version, the only copy');
		expect(JSON.stringify(result.items[0]?.json)).toMatch(/error/);
	}, 60_000);
});

describe("Folder → Move says 'gone' only of a source that was deleted", () => {
	it("a gateway's JSON 404 for the source's link: the source is still there, so the file is never reported 'gone'", async () => {
		const source = 'gw-folder/a.txt';
		await put(HERE, source, 'still here');
		await sleep(5000);
		let blipped = false;
		emulator().adversary.setHooks({
			before: async (call: HookCall) => {
				if (blipped || call.op !== 'signedUrl' || call.query.get('key') !== source) return undefined;
				blipped = true;
				return GATEWAY_404;
			},
		});
		const result = await runFileStorage(
			emulator(),
			{ resource: 'folder', operation: 'move', folder: path('gw-folder/'), destinationFolder: path('gw-folder-to/') },
			{ continueOnFail: true },
		);
		emulator().adversary.setHooks(undefined);
		expect(blipped).toBe(true);
		const stillThere = (await read(HERE, source)) === 'still here';
		const statuses = result.items.map((item) => item.json.status);
		// Either it was moved, or its status does not claim someone deleted it.
		if (stillThere) expect(statuses).not.toContain('gone');
	}, 60_000);
});
