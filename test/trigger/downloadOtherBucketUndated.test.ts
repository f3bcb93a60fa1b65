/**
 * Download File of a file whose key another bucket of the account holds too, with a file of the same size. One CDN
 * location serves the key of every bucket (spec §3.9; docs/api-choices.md, "Another bucket of the account holding the
 * source's key"), and a CDN or proxy may drop Last-Modified (spec §3.12): such an answer is dated by nothing, and the
 * poll's listing of this bucket, read before and after it, is unchanged whatever bucket answered. docs/trigger.md:
 * "The bytes are the version the listing recorded, or none".
 */
import type { HookCall } from '../emulator/history';
import { BUCKET, Poller, useEmulator } from './support';

const OTHER = { name: 'first-bucket', region: 'eu-west-1' };
const HERE = { name: BUCKET.bucketName, region: BUCKET.region };
const emulator = useEmulator({ buckets: [OTHER, HERE] });

afterEach(() => emulator().adversary.setHooks(undefined));

describe('Download File of a key another bucket holds too, the CDN answering undated', () => {
	it('never emits the other bucket’s same-size file as the file’s content; after its attempts, the change comes without it', async () => {
		const key = 'undated-other/report.txt';
		const trigger = new Poller(emulator, {
			folder: 'undated-other',
			watchFor: ['created', 'updated'],
			options: { downloadFile: true },
		} as never);
		expect((await trigger.poll()).returnedNull).toBe(true);
		const options = { visibility: 'private' as const, contentType: 'text/plain', writer: 'setup' };
		await emulator().adversary.put(HERE, key, Buffer.from('mine: AAAA'), options);
		await emulator().adversary.put(OTHER, key, Buffer.from('other BBBB'), { ...options, writer: 'other' });
		// The key's one CDN location answers with the other bucket's file, through a CDN that drops Last-Modified.
		emulator().adversary.setHooks({
			before: async (call: HookCall) => {
				if (call.op !== 'cdn' || !call.path.endsWith(`/${key}`)) return undefined;
				const other = await emulator().readObject(OTHER.name, OTHER.region, key);
				return {
					status: 200,
					headers: { 'Content-Type': 'text/plain', 'Content-Length': '10', Date: new Date().toUTCString() },
					body: other?.body.toString(),
				};
			},
		});
		const seen: Array<{ bytes?: string; error?: unknown }> = [];
		for (let poll = 0; poll < 3; poll++) {
			const result = await trigger.poll();
			expect(result.error).toBeUndefined();
			for (const item of result.items) {
				const bytes = item.binary ? (await result.readBinary(item)).toString() : undefined;
				seen.push({ bytes, error: item.json.error });
			}
		}
		expect(seen.filter((item) => item.bytes === 'other BBBB')).toEqual([]);
		// Held back, then emitted without the file, the error naming the missing Last-Modified and the way out.
		expect(seen).toEqual([
			{ bytes: undefined, error: expect.stringMatching(/names no Last-Modified.*keep one key in one bucket/) },
		]);
	}, 30_000);
});
