/**
 * File → Move between two buckets of one account holding the same keys,
 * through n8n-core's engine over real HTTP to the emulator. The CDN location of a file names its
 * key, not its bucket (spec §3.9): reading one bucket's file may answer the other's.
 */
import { runNode } from '../harness';
import { BUCKET, credentialsFor, sha256, useEmulator } from './support';

const OTHER = { name: 'first-bucket', region: 'eu-west-1' };
const SOURCE = { name: BUCKET.bucketName, region: BUCKET.region };
// The other bucket first: the emulator's CDN answers a key from the first bucket holding it.
const emulator = useEmulator({ buckets: [OTHER, SOURCE] });
const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

describe('File → Move to the same key in another bucket of the account', () => {
	it('with Replace Existing File on, onto a file with the same CDN location: refused, both files kept as they were', async () => {
		const key = 'file-move/x.txt';
		const mine = Buffer.from('AAAA source');
		const theirs = Buffer.from('BBBB theirs');
		const options = { visibility: 'public' as const, contentType: 'text/plain', writer: 'setup' };
		await emulator().adversary.put(SOURCE, key, mine, options);
		await emulator().adversary.put(OTHER, key, theirs, options);
		await sleep(6000);
		const result = await runNode({
			credentials: credentialsFor(emulator()),
			parameters: {
				...BUCKET,
				resource: 'file',
				operation: 'move',
				fileKey: { __rl: true, mode: 'key', value: key },
				destinationKey: key,
				options: { destinationBucket: OTHER.name, destinationRegion: OTHER.region, replace: true },
			},
			continueOnFail: true,
		});
		const source = await emulator().readObject(SOURCE.name, SOURCE.region, key);
		const destination = await emulator().readObject(OTHER.name, OTHER.region, key);
		const holds = [source, destination].map((stored) => stored && sha256(stored.body));
		expect(holds).toEqual([sha256(mine), sha256(theirs)]);
		expect(String(result.items[0]?.json.error)).toMatch(/have one CDN location/);
	}, 60_000);
});
