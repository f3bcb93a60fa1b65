/**
 * File → Move and Copy read the source through the link the API's signed-URL call answers (spec §3.8:
 * `<location>?…signature…`, the location being `{cdn}/f/{access id}/{key}`, spec §3.9). An answer of
 * 200 whose link names another key (a service or gateway answering for another request) must not be
 * read as the source: the other file may have the source's size and second (a batch of same-size
 * files written together), which is all the listing's record can tell. A Move must never delete a
 * source whose bytes it did not copy, and neither may report another file's bytes as the copy.
 */
import type { HookCall } from '../emulator/history';
import { signedUrl } from '../emulator/signed-url';
import { BUCKET, runFileStorage, useEmulator } from './support';

const HERE = { name: BUCKET.bucketName, region: BUCKET.region };
const emulator = useEmulator();
const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));
const text = async (key: string) => (await emulator().readObject(HERE.name, HERE.region, key))?.body.toString();

afterEach(() => emulator().adversary.setHooks(undefined));

/** Two private files of one size stored in one second (as a batch writer stores them). */
async function sameSizeSameSecond(source: string, other: string) {
	const options = { visibility: 'private' as const, contentType: 'text/plain', writer: 'setup' };
	for (;;) {
		const a = await emulator().adversary.put(HERE, source, Buffer.from('source AAAA'), options);
		const b = await emulator().adversary.put(HERE, other, Buffer.from('other  BBBB'), options);
		if (new Date(a.lastModified).getUTCSeconds() === new Date(b.lastModified).getUTCSeconds()) return;
	}
}

describe('File → Move and Copy take the source only through a link that names its key', () => {
	it.each(['move', 'copy'])(
		'%s: a signed-URL answer naming another key of the same size and second is not read as the source',
		async (operation) => {
			const source = `link-key-${operation}/a.txt`;
			const other = `link-key-${operation}/b.txt`;
			const destination = `link-key-${operation}/done.txt`;
			await sameSizeSameSecond(source, other);
			await sleep(4500);
			// The signed-URL call for the source answered 200 with a valid link of the other key.
			emulator().adversary.setHooks({
				after: async (call: HookCall, reply) => {
					if (call.op !== 'signedUrl' || call.query.get('key') !== source) return;
					const data = (reply.body as { data?: { url?: string } }).data;
					if (!data?.url) return;
					const expires = Math.floor(Date.now() / 1000) + 900;
					data.url = signedUrl(new URL(data.url).origin, emulator().secretKey, emulator().accessId, other, expires);
				},
			});
			const result = await runFileStorage(
				emulator(),
				{
					resource: 'file',
					operation,
					fileKey: { __rl: true, mode: 'key', value: source },
					destinationKey: destination,
					options: { maxRetries: 0 },
				},
				{ typeVersion: 3, continueOnFail: true },
			);
			emulator().adversary.setHooks(undefined);
			const stored = { source: await text(source), copy: await text(destination) };
			// The source's bytes are still in the bucket, and a copy made holds them, whatever the item says.
			expect({ stored, item: result.items[0]?.json }).toMatchObject({
				stored: { [stored.copy === undefined ? 'source' : 'copy']: 'source AAAA' },
			});
			expect([stored.source, stored.copy]).toContain('source AAAA');
		},
		60_000,
	);
});
