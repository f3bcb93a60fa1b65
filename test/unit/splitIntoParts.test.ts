import { splitIntoParts } from '../../nodes/FileStorage/upload/binaryInput';

async function* chunksOf(...sizes: number[]): AsyncGenerator<Buffer> {
	let value = 0;
	for (const size of sizes) yield Buffer.from(Array.from({ length: size }, () => value++ % 256));
}

async function collect(parts: AsyncIterable<Buffer>): Promise<Buffer[]> {
	const all: Buffer[] = [];
	for await (const part of parts) all.push(Buffer.from(part));
	return all;
}

describe('splitIntoParts', () => {
	it('cuts chunks of any size into parts of exactly the part size, the last one shorter', async () => {
		const parts = await collect(splitIntoParts(chunksOf(3, 7, 1, 4), 4, () => Buffer.alloc(4)));
		expect(parts.map((part) => part.length)).toEqual([4, 4, 4, 3]);
		expect(Buffer.concat(parts)).toEqual(Buffer.concat(await collect(chunksOf(3, 7, 1, 4))));
	});

	it('takes a part buffer shorter than the part size when the source fits in it', async () => {
		const parts = await collect(splitIntoParts(chunksOf(3, 2), 8, () => Buffer.alloc(5)));
		expect(parts.map((part) => part.length)).toEqual([5]);
	});

	it('refuses a part buffer shorter than the part size instead of looping forever', async () => {
		await expect(collect(splitIntoParts(chunksOf(10), 8, () => Buffer.alloc(5)))).rejects.toThrow(
			'a part buffer of 5 bytes cannot hold a part of 8 bytes',
		);
	});

	it.each([0, -1, 2.5, NaN])('refuses a part size of %p instead of looping forever', async (partSize) => {
		await expect(collect(splitIntoParts(chunksOf(10), partSize, () => Buffer.alloc(8)))).rejects.toThrow(
			/part size must be a whole number of bytes above 0/,
		);
	});
});
