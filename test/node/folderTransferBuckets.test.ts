/**
 * Folder → Copy and Folder → Move (and File → Move) between two buckets of one account holding the same keys,
 * through n8n-core's engine over real HTTP to the emulator. The CDN location of a file names its
 * key, not its bucket (spec §3.9): reading one bucket's file may answer the other's.
 */
import { runNode } from '../harness';
import { BUCKET, credentialsFor, sha256, useEmulator } from './support';

const OTHER = { name: 'first-bucket', region: 'eu-west-1' };
const SOURCE = { name: BUCKET.bucketName, region: BUCKET.region };
// The other bucket first: the emulator's CDN answers a key from the first bucket holding it.
const emulator = useEmulator({ buckets: [OTHER, SOURCE] });
const path = (value: string) => ({ __rl: true, mode: 'path', value });
const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

const mine = Buffer.from('AAAA source');
const theirs = Buffer.from('BBBB theirs');

/** `mine` at `key` in the source bucket, `theirs` in the other, both public and settled (no read waits). */
async function storeInBoth(key: string) {
	const options = { visibility: 'public' as const, contentType: 'text/plain', writer: 'setup' };
	await emulator().adversary.put(SOURCE, key, mine, options);
	await emulator().adversary.put(OTHER, key, theirs, options);
	await sleep(6000);
}

describe('the same folder in another bucket of the account', () => {
	it.each([
		['move', false],
		['copy', false],
		['move', true],
	] as const)(
		'%s (Replace Existing Files %s): a destination with other bytes of the same size is never taken for the copy, the source stays',
		async (operation, replace) => {
			const key = `same-${operation}-${replace}/x.txt`;
			await storeInBoth(key);
			const result = await runNode({
				credentials: credentialsFor(emulator()),
				parameters: {
					...BUCKET,
					resource: 'folder',
					operation,
					folder: path(`same-${operation}-${replace}/`),
					destinationFolder: path(`same-${operation}-${replace}/`),
					replace,
					options: { destinationBucket: OTHER.name, destinationRegion: OTHER.region },
				},
				continueOnFail: true,
			});
			const source = await emulator().readObject(SOURCE.name, SOURCE.region, key);
			const destination = await emulator().readObject(OTHER.name, OTHER.region, key);
			// The source's bytes are still somewhere, and the other bucket's file was not replaced unasked.
			const holds = [source, destination].map((stored) => stored && sha256(stored.body));
			expect(holds).toContain(sha256(mine));
			if (!replace) expect(holds[1]).toBe(sha256(theirs));
			const statuses = result.items.map((item) => item.json.status);
			expect(statuses).not.toContain('skipped');
			expect(statuses).not.toContain('moved');
			// A Move there is refused before any request: no read of a copy could be told from the source.
			if (operation === 'move')
				expect(String(result.items[0]?.json.error)).toMatch(/source folder's own path in another bucket/);
		},
		60_000,
	);
});

describe('Folder → Copy and Move into another bucket, the two paths overlapping', () => {
	it.each([
		[
			'move',
			'over/',
			'over/b/',
			/the destination 'over\/b\/' in bucket .* is inside the source folder's path 'over\/'/,
		],
		[
			'copy',
			'over/',
			'over/b/',
			/the destination 'over\/b\/' in bucket .* is inside the source folder's path 'over\/'/,
		],
		[
			'move',
			'over/b/',
			'over/',
			/the source folder 'over\/b\/' in bucket .* is inside the destination's path 'over\/'/,
		],
		[
			'copy',
			'over/b/',
			'over/',
			/the source folder 'over\/b\/' in bucket .* is inside the destination's path 'over\/'/,
		],
	] as const)(
		'%s %s → %s: refused before any request (one CDN location per key in the account), naming what to do instead',
		async (operation, from, to, words) => {
			await emulator().adversary.put(SOURCE, `${from}x.txt`, mine, { visibility: 'private', writer: 'setup' });
			emulator().resetStats();
			const result = await runNode({
				credentials: credentialsFor(emulator()),
				parameters: {
					...BUCKET,
					resource: 'folder',
					operation,
					folder: path(from),
					destinationFolder: path(to),
					options: { destinationBucket: OTHER.name, destinationRegion: OTHER.region },
				},
				continueOnFail: true,
			});
			expect(String(result.items[0]?.json.error)).toMatch(words);
			expect(String(result.items[0]?.json.description)).toMatch(/one CDN location per key in the account/);
			expect(String(result.items[0]?.json.description)).toMatch(/outside the source's path .* or do it in two steps/);
			expect(Object.values(emulator().stats().requests).reduce((sum, n) => sum + n, 0)).toBe(0);
			expect((await emulator().readObject(SOURCE.name, SOURCE.region, `${from}x.txt`))?.body).toEqual(mine);
		},
		60_000,
	);
});

describe('Folder → Move of the whole bucket', () => {
	it('an empty Folder is refused before any request unless Allow Whole Bucket is on, and nothing moves into another bucket’s folder', async () => {
		await emulator().adversary.put(SOURCE, 'whole/kept.txt', Buffer.from('stays'), {
			visibility: 'private',
			writer: 'setup',
		});
		const run = async (options: Record<string, unknown>, dryRun = false) =>
			await runNode({
				credentials: credentialsFor(emulator()),
				parameters: {
					...BUCKET,
					resource: 'folder',
					operation: 'move',
					folder: path(''),
					destinationFolder: path('whole-bucket/'),
					dryRun,
					options: { destinationBucket: OTHER.name, destinationRegion: OTHER.region, ...options },
				},
			});
		const refused = await run({});
		expect(refused.error?.message).toMatch(/'Folder' is empty: that would move every file of the bucket/);
		expect(refused.error?.description).toMatch(/Allow Whole Bucket/);
		expect((await emulator().readObject(SOURCE.name, SOURCE.region, 'whole/kept.txt'))?.body.toString()).toBe('stays');
		// Allowed, it passes that refusal, and meets the next one: a folder of another bucket lies inside the whole
		// bucket's key range (one CDN location per key in the account), so that too is refused, and nothing moves.
		emulator().resetStats();
		const dry = await run({ allowWholeBucket: true }, true);
		expect(dry.error?.message).toMatch(
			/'whole-bucket\/' in bucket .* is inside the source folder's path '\/' in another bucket/,
		);
		expect(Object.values(emulator().stats().requests).reduce((sum, n) => sum + n, 0)).toBe(0);
		expect((await emulator().readObject(SOURCE.name, SOURCE.region, 'whole/kept.txt'))?.body.toString()).toBe('stays');
	}, 60_000);
});

describe('File → Copy and Move to the same key in another bucket of the account', () => {
	it.each([
		['copy', /have one CDN location/],
		['move', /is the source's own path in another bucket/],
	] as const)(
		'%s with Replace Existing File on, onto a file with the same CDN location: refused, both files kept as they were',
		async (operation, words) => {
			const key = `file-${operation}/x.txt`;
			await storeInBoth(key);
			const result = await runNode({
				credentials: credentialsFor(emulator()),
				parameters: {
					...BUCKET,
					resource: 'file',
					operation,
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
			expect(String(result.items[0]?.json.error)).toMatch(words);
		},
		60_000,
	);

	it('a Move there is refused before any request, even with no file there: no read of the copy could be told from the source', async () => {
		const key = 'file-move-free/x.txt';
		await emulator().adversary.put(SOURCE, key, mine, {
			visibility: 'public',
			contentType: 'text/plain',
			writer: 'setup',
		});
		emulator().resetStats();
		const result = await runNode({
			credentials: credentialsFor(emulator()),
			parameters: {
				...BUCKET,
				resource: 'file',
				operation: 'move',
				fileKey: { __rl: true, mode: 'key', value: key },
				destinationKey: key,
				options: { destinationBucket: OTHER.name, destinationRegion: OTHER.region },
			},
			continueOnFail: true,
		});
		expect(String(result.items[0]?.json.error)).toMatch(/is the source's own path in another bucket/);
		expect(String(result.items[0]?.json.description)).toMatch(/Move it to another path in that bucket/);
		expect(Object.values(emulator().stats().requests).reduce((sum, n) => sum + n, 0)).toBe(0);
		expect(await emulator().readObject(OTHER.name, OTHER.region, key)).toBeUndefined();
	}, 60_000);
});

describe('File → Copy to the same key in another bucket, a file stored there while the source is read', () => {
	it('is refused once the source has answered: the source stays, the other writer’s file stays', async () => {
		const key = 'file-appear/x.txt';
		await emulator().adversary.put(SOURCE, key, mine, {
			visibility: 'private',
			contentType: 'text/plain',
			writer: 'setup',
		});
		await sleep(5000);
		let struck = false;
		emulator().adversary.setHooks({
			before: async (call) => {
				// After the node found the destination free, before the source's bytes are read.
				if (call.op !== 'cdn' || struck) return undefined;
				struck = true;
				await emulator().adversary.put(OTHER, key, theirs, {
					visibility: 'private',
					contentType: 'text/plain',
					writer: 'other',
				});
				return undefined;
			},
		});
		const result = await runNode({
			credentials: credentialsFor(emulator()),
			parameters: {
				...BUCKET,
				resource: 'file',
				operation: 'copy',
				fileKey: { __rl: true, mode: 'key', value: key },
				destinationKey: key,
				options: { destinationBucket: OTHER.name, destinationRegion: OTHER.region },
			},
			continueOnFail: true,
		});
		emulator().adversary.setHooks(undefined);
		expect(struck).toBe(true);
		const source = await emulator().readObject(SOURCE.name, SOURCE.region, key);
		const destination = await emulator().readObject(OTHER.name, OTHER.region, key);
		expect([source, destination].map((stored) => stored && sha256(stored.body))).toEqual([
			sha256(mine),
			sha256(theirs),
		]);
		expect(String(result.items[0]?.json.error)).toMatch(
			/a file is at the destination .* now, which was not there|may be the file at this key in another bucket/,
		);
	}, 60_000);
});

/** A third bucket of the account holding the key: the CDN answers it first (the location names no bucket). */
const THIRD = { name: 'a-third-bucket', region: 'eu-west-1' };
const threeBuckets = useEmulator({ buckets: [THIRD, SOURCE, OTHER] });

describe('Folder → Move between two buckets while a third holds the same key', () => {
	it.each([
		['another size', Buffer.from('CCCC third bucket, longer')],
		['the same size, stored seconds before the source', Buffer.from('CCCC source')],
	])(
		'with %s there: the third bucket’s bytes are never taken for the source, which stays',
		async (_, third) => {
			const key = `third-${third.length}/x.txt`;
			const options = { visibility: 'private' as const, contentType: 'text/plain', writer: 'setup' };
			await threeBuckets().adversary.put(THIRD, key, third, options);
			await sleep(2100);
			await threeBuckets().adversary.put(SOURCE, key, mine, options);
			await sleep(5000);
			const result = await runNode({
				credentials: credentialsFor(threeBuckets()),
				parameters: {
					...BUCKET,
					resource: 'folder',
					operation: 'move',
					folder: path(`third-${third.length}/`),
					destinationFolder: path(`moved-third-${third.length}/`),
					options: { destinationBucket: OTHER.name, destinationRegion: OTHER.region },
				},
				continueOnFail: true,
			});
			const [source, destination] = await Promise.all(
				[SOURCE, OTHER].map(async (bucket) => await threeBuckets().readObject(bucket.name, bucket.region, key)),
			);
			expect(source && sha256(source.body)).toBe(sha256(mine));
			expect(destination).toBeUndefined();
			expect(result.items.map((item) => item.json.status)).toEqual(['failed']);
			expect(String(result.items[0]?.json.error)).toMatch(/not the version the service stores/);
		},
		60_000,
	);
});
