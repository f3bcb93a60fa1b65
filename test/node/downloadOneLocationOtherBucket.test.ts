/**
 * File → Download of a file whose key another bucket of the account holds too. A file's CDN location
 * names the access id and the key, not the bucket (spec §3.9; docs/api-choices.md, "One key in two
 * buckets has one CDN location"), so the read of the one may be answered with the other (the
 * emulator's CDN answers a key from the first bucket holding it). A download must give the bytes of
 * the file it names, or fail with nothing stored: never another bucket's file as this one.
 */
import { downloadByKey, useEmulator, BUCKET } from './support';

const OTHER = { name: 'first-bucket', region: 'eu-west-1' };
const HERE = { name: BUCKET.bucketName, region: BUCKET.region };
// The other bucket first: the emulator's CDN answers a key from the first bucket holding it.
const emulator = useEmulator({ buckets: [OTHER, HERE] });
const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

describe('File → Download of a key another bucket of the account holds too', () => {
	it.each([1, 3])(
		'(version %i) never gives the other bucket’s same-size file, written later, as the file it downloads',
		async (typeVersion) => {
			const key = `one-location-${typeVersion}/report.txt`;
			const options = { visibility: 'public' as const, contentType: 'text/plain', writer: 'setup' };
			await emulator().adversary.put(HERE, key, Buffer.from('mine: AAAA'), options);
			await sleep(1100);
			await emulator().adversary.put(OTHER, key, Buffer.from('other BBBB'), { ...options, writer: 'other' });
			const result = await downloadByKey(emulator(), key, { typeVersion, continueOnFail: true });
			const item = result.items[0];
			const given = item?.binary ? (await result.readBinary(item)).toString() : undefined;
			// Either the bytes of the file in the bucket the item names, or no bytes at all.
			expect({ given, error: item?.json.error ?? result.error?.message }).not.toMatchObject({ given: 'other BBBB' });
			if (given !== undefined) expect(given).toBe('mine: AAAA');
		},
		30_000,
	);

	it('a private file: never gives the other bucket’s file (of another size, written earlier) as the file it downloads', async () => {
		const key = 'one-location-private/report.txt';
		const options = { visibility: 'private' as const, contentType: 'text/plain', writer: 'setup' };
		await emulator().adversary.put(OTHER, key, Buffer.from('the other bucket, another size'), options);
		await emulator().adversary.put(HERE, key, Buffer.from('mine: AAAA'), options);
		const result = await downloadByKey(emulator(), key, { continueOnFail: true });
		const item = result.items[0];
		const given = item?.binary ? (await result.readBinary(item)).toString() : undefined;
		if (given !== undefined) expect(given).toBe('mine: AAAA');
	}, 30_000);
});
