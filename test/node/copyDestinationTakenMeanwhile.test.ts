/**
 * Copy and Move with Replace Existing File off check the destination before anything is read,
 * and again once the source is open (after any wait for a just-written source to settle) and
 * just before an upload in parts completes: a file another writer stores at the destination in
 * the meantime is kept, the copy refused (its parts cancelled), a Move's source kept. Through
 * n8n-core's engine over real HTTP to the emulator; the other writer acts from its hooks.
 */
import type { HookCall } from '../emulator/history';
import { HERE, MIB, byKey, randomFile, runFileStorage, useEmulator } from './support';

const emulator = useEmulator();
const EDITOR = 'the final cut, stored by the editor';

async function put(key: string, body: Buffer | string, writer: string) {
	await emulator().adversary.put(HERE, key, Buffer.from(body), {
		visibility: 'private',
		contentType: 'video/mp4',
		writer,
	});
}
const read = async (key: string) => (await emulator().readObject(HERE.name, HERE.region, key))?.body;

afterEach(() => emulator().adversary.setHooks(undefined));

/** A copy whose destination another writer takes when the node sends its first `op` request. */
async function copyWhileTaken(operation: 'copy' | 'move', size: number, op: 'uploadPart' | 'cdn', words: string) {
	const source = `taken-${operation}-${op}/master.mp4`;
	const destination = `taken-${operation}-${op}/final.mp4`;
	const bytes = randomFile(size);
	await put(source, bytes, 'setup');
	// A just-written source is read once the listing's second is past (moveSource.ts).
	await new Promise((resolve) => setTimeout(resolve, 5000));
	let struck = false;
	emulator().adversary.setHooks({
		before: async (call: HookCall) => {
			if (struck || call.op !== op) return undefined;
			if (op === 'uploadPart' && call.query.get('key') !== destination) return undefined;
			struck = true;
			await put(destination, EDITOR, 'editor');
			return undefined;
		},
	});
	const result = await runFileStorage(
		emulator(),
		{
			resource: 'file',
			operation,
			fileKey: byKey(source),
			destinationKey: destination,
			options: { multipartThreshold: 5, partSize: 5 },
		},
		{ continueOnFail: true },
	);
	emulator().adversary.setHooks(undefined);
	expect(struck).toBe(true);
	expect(String(result.items[0]?.json.error)).toContain(`was stored by another writer ${words}`);
	expect(String(result.items[0]?.json.description)).toContain('Replace Existing File is off');
	expect((await read(destination))?.toString()).toBe(EDITOR);
	expect((await read(source))?.equals(bytes)).toBe(true);
	expect(emulator().listOpenUploads()).toEqual([]);
}

describe.each(['copy', 'move'] as const)('%s with Replace Existing File off', (operation) => {
	it("another writer's file stored at the destination while its parts are sent is kept, and the source too", async () => {
		await copyWhileTaken(operation, 11 * MIB, 'uploadPart', 'before the copy completed');
	}, 60_000);

	it("another writer's file stored at the destination while the source is read is kept, and the source too", async () => {
		await copyWhileTaken(operation, 1000, 'cdn', 'while the source was opened');
	}, 60_000);
});
