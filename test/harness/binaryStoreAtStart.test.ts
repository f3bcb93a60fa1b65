/**
 * Runs here are the first of their process with no binary in their input: the harness must still
 * stand for n8n after start-up, where the binary store is initialised before any node runs.
 */
import { randomFile, runFileStorage, useEmulator } from '../node/support';

const emulator = useEmulator();

it('a run whose input items carry no binary stores the files it downloads in the filesystem store, as n8n does after start-up', async () => {
	const bytes = randomFile(70_000);
	// Inline base64 on the item, as a Code node makes it: this input does not set up the store either.
	const item = { json: {}, binary: { data: { data: bytes, fileName: 'first.bin', base64Inline: true } } };
	const up = await runFileStorage(
		emulator(),
		{ resource: 'file', operation: 'upload', key: 'first.bin' },
		{ items: [item] },
	);
	expect(up.error).toBeUndefined();

	const got = await runFileStorage(emulator(), {
		resource: 'file',
		operation: 'download',
		fileKey: { __rl: true, mode: 'key', value: 'first.bin' },
	});
	expect(got.error).toBeUndefined();
	const binary = got.items[0].binary?.data;
	// Before: no id, and the file as base64 in `data` (n8n-core's fallback with no store set up).
	expect(binary?.id).toMatch(/^filesystem-v2:/);
	expect((await got.readBinary(got.items[0])).equals(bytes)).toBe(true);
});
