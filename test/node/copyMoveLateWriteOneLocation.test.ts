/**
 * File → Move items of one run: the first item's copy goes to a key of another bucket
 * that is the second item's source key. Its upload is answered 504 by a gateway (the service stores it
 * later: its outcome is unknown), and it lands while the second item reads its source. A file's CDN
 * location names the key, not the bucket (spec §3.9): the second source's read is then answered with
 * the first item's copy. The second Move must not copy those bytes as its own and delete its source.
 * Through n8n-core's engine over real HTTP to the emulator.
 */
import type { HookCall } from '../emulator/history';
import { runNode } from '../harness';
import { useLateWriteGateway } from './lateWriteGateway';
import { BUCKET, credentialsFor, useEmulator } from './support';

const OTHER = { name: 'first-bucket', region: 'eu-west-1' };
const SOURCE = { name: BUCKET.bucketName, region: BUCKET.region };
// The other bucket first: the emulator's CDN answers a key from the first bucket holding it.
const emulator = useEmulator({ buckets: [OTHER, SOURCE] });
const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));
const text = async (where: typeof SOURCE, key: string) =>
	(await emulator().readObject(where.name, where.region, key))?.body.toString();

/** Forwards to the emulator; an upload to OTHER's `late/y.txt` is answered 504 and forwarded on `land()`. */
function useLateGateway() {
	const held: Array<() => void> = [];
	const url = useLateWriteGateway(emulator, {
		holds: (req) => {
			const query = new URL(req.url ?? '/', 'http://x').searchParams;
			return req.method === 'PUT' && query.get('bucket_name') === OTHER.name && query.get('key') === 'late/y.txt';
		},
		later: (handOn) => held.push(handOn),
	});
	return () => ({ url: url(), land: () => held.splice(0).forEach((go) => go()) });
}

const gateway = useLateGateway();
afterEach(() => emulator().adversary.setHooks(undefined));

describe.each([2, 3])('File → Move items of one run (node version %i)', (typeVersion) => {
	it("a copy whose upload's outcome is unknown, landing at another item's source key in another bucket while that source is read: the source keeps its bytes", async () => {
		const options = { visibility: 'private' as const, contentType: 'text/plain', writer: 'setup' };
		for (const key of ['late/yy.txt', 'late/y.txt', 'late/z.txt'])
			await emulator().adversary.remove(SOURCE, key, 'setup');
		await emulator().adversary.remove(OTHER, 'late/y.txt', 'setup');
		await emulator().adversary.put(SOURCE, 'late/yy.txt', Buffer.from('AAAA'), options);
		await emulator().adversary.put(SOURCE, 'late/y.txt', Buffer.from('BBBB'), options);
		await sleep(2100);
		// The late write lands once the second item asks for its source's link.
		emulator().adversary.setHooks({
			before: async (call: HookCall) => {
				if (call.op !== 'signedUrl' || call.query.get('bucket_name') !== SOURCE.name) return undefined;
				if (call.query.get('key') !== 'late/y.txt') return undefined;
				gateway().land();
				for (let waited = 0; waited < 5000; waited += 50) {
					if ((await text(OTHER, 'late/y.txt')) !== undefined) break;
					await sleep(50);
				}
				return undefined;
			},
		});
		// The first item's keys sort from the shared one (late/y.txt < late/yy.txt): its turn comes first in version 3 too.
		const result = await runNode({
			credentials: credentialsFor(emulator(), { baseUrl: gateway().url }),
			typeVersion,
			items: [
				{ json: { from: 'late/yy.txt', to: 'late/y.txt', bucket: OTHER.name, region: OTHER.region } },
				{ json: { from: 'late/y.txt', to: 'late/z.txt', bucket: SOURCE.name, region: SOURCE.region } },
			],
			parameters: {
				...BUCKET,
				resource: 'file',
				operation: 'move',
				fileKey: { __rl: true, mode: 'key', value: '={{ $json.from }}' },
				destinationKey: '={{ $json.to }}',
				options: { destinationBucket: '={{ $json.bucket }}', destinationRegion: '={{ $json.region }}', maxRetries: 0 },
			},
			continueOnFail: true,
		});
		emulator().adversary.setHooks(undefined);
		gateway().land();
		await sleep(300);
		const stored = [
			await text(SOURCE, 'late/yy.txt'),
			await text(SOURCE, 'late/y.txt'),
			await text(OTHER, 'late/y.txt'),
			await text(SOURCE, 'late/z.txt'),
		];
		// Both files' bytes are still somewhere, and a copy made holds its own source's bytes.
		expect({ stored, items: result.items.map((item) => item.json) }).toEqual(
			expect.objectContaining({ stored: expect.arrayContaining(['AAAA', 'BBBB']) }),
		);
		if (stored[3] !== undefined) expect(stored[3]).toBe('BBBB');
	}, 60_000);
});
