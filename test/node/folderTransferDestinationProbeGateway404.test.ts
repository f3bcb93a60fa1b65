/**
 * Folder → Copy and Move to another bucket ask the top of that bucket once, before the listing, whether it exists.
 * Only the API's own "not found" (its `error` naming what was not found, spec §2) shows the bucket missing: a
 * gateway's JSON 404 ("no Route matched with those values" in `message` alone, apiAnswer.ts isApiNotFoundAnswer)
 * shows nothing of it, and must not fail the run as "the destination bucket was not found" (docs/operations.md: "Any
 * other failure of that request is left to each file"). Through n8n-core's engine over real HTTP, via a proxy.
 */
import { runNode } from '../harness';
import { useProxy, viaProxy } from './proxy';
import { BUCKET, useEmulator } from './support';

const OTHER = { name: 'archive-bucket', region: BUCKET.region };
const SOURCE = { name: BUCKET.bucketName, region: BUCKET.region };
const emulator = useEmulator({ buckets: [SOURCE, OTHER] });
const proxy = useProxy(emulator);
const path = (value: string) => ({ __rl: true, mode: 'path', value });
const GATEWAY_404 = JSON.stringify({ message: 'no Route matched with those values' });

describe('the destination bucket probe of Folder → Copy and Move', () => {
	it.each(['copy', 'move'] as const)(
		'%s: a gateway JSON 404 to the probe is not taken for a missing destination bucket, the files go on',
		async (operation) => {
			const options = { visibility: 'private' as const, contentType: 'text/plain', writer: 'setup' };
			await emulator().adversary.put(SOURCE, `probe-${operation}/a.txt`, Buffer.from('a'), options);
			// The first list request (the probe of the destination's top) meets a gateway's 404; the rest are forwarded.
			proxy().setRules({
				answerInstead: {
					list: [{ status: 404, headers: { 'Content-Type': 'application/json' }, html: GATEWAY_404 }],
				},
			});
			const result = await runNode({
				credentials: viaProxy(emulator(), proxy()),
				parameters: {
					...BUCKET,
					resource: 'folder',
					operation,
					folder: path(`probe-${operation}/`),
					destinationFolder: path(`done-${operation}/`),
					options: { destinationBucket: OTHER.name },
				},
				continueOnFail: true,
			});
			const words = JSON.stringify(result.items.map((item) => item.json));
			expect(words).not.toMatch(/destination bucket 'archive-bucket' \(region [^)]*\) was not found/);
			expect(result.items.map((item) => item.json.status)).toEqual([operation === 'copy' ? 'copied' : 'moved']);
			const copy = await emulator().readObject(OTHER.name, OTHER.region, `done-${operation}/a.txt`);
			expect(copy?.body.toString()).toBe('a');
		},
		60_000,
	);
});
