/**
 * Review 3: keys with a "." segment are valid keys (only ".." is refused), distinct from the key
 * without it. The CDN link of such a key must reach that key: a URL parser resolves "/./" in a
 * link's path, so the GET of "./docs/a.txt" fetches "docs/a.txt" instead. Move then "copies" the
 * wrong file onto the destination and deletes the source, whose bytes are gone.
 */
import { BUCKET, fileItem, randomFile, runFileStorage, sha256, useEmulator } from './support';

const emulator = useEmulator();

const byKey = (value: string) => ({ __rl: true, mode: 'key', value });

async function store(key: string, bytes: Buffer, visibility = 'private') {
	const result = await runFileStorage(
		emulator(),
		{ resource: 'file', operation: 'upload', key, visibility },
		{ items: [fileItem(bytes, 'upload.bin')] },
	);
	expect(result.error).toBeUndefined();
}

const stored = async (key: string) => await emulator().objectSha256(BUCKET.bucketName, BUCKET.region, key);

describe('keys with a "." segment', () => {
	it('Move of "./docs/a.txt" onto "docs/a.txt" (Replace on) moves the source\'s bytes, or fails and keeps the source', async () => {
		const source = randomFile(3000);
		const other = randomFile(5000);
		// Public: the CDN serves a public file by its path, whatever the link's signature.
		await store('./docs/a.txt', source, 'public');
		await store('docs/a.txt', other, 'public');
		const result = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'move',
			fileKey: byKey('./docs/a.txt'),
			destinationKey: 'docs/a.txt',
			options: { replace: true },
		});
		// The source's bytes must still be somewhere: at the destination after a Move, or at the source.
		const after = {
			error: result.error?.message,
			source: await stored('./docs/a.txt'),
			destination: await stored('docs/a.txt'),
		};
		expect(after).toEqual(
			result.error
				? { error: after.error, source: sha256(source), destination: sha256(other) }
				: { error: undefined, source: undefined, destination: sha256(source) },
		);
	});

	it('Download of "./docs/b.txt" (a private file) gives that file\'s bytes', async () => {
		const dotted = randomFile(3000);
		await store('./docs/b.txt', dotted);
		await store('docs/b.txt', randomFile(5000));
		const result = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'download',
			fileKey: byKey('./docs/b.txt'),
		});
		expect(result.error).toBeUndefined();
		expect(await result.binarySha256(result.items[0])).toBe(sha256(dotted));
	});
});
