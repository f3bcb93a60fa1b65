/**
 * Upload with Refuse Existing File from a Source URL, in one request (the source below the Multipart
 * Threshold): the key is checked once the source's answer has begun, and then the source's body is
 * read. A source that sends its body slowly (a far server, a large file on a slow link) leaves the
 * whole read between that check and the upload. docs/api-choices.md ("Another writer outside the
 * run") promises that what remains is "a file stored between the last check and the moment the write
 * reaches the service, milliseconds": a file another writer stores while the body is read must be kept.
 * Through n8n-core's engine over real HTTP to the emulator; the Source URL is a local server whose
 * body comes only after the node has checked the key, and another writer stores a file in between.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { HookCall } from '../emulator/history';
import { useLocalHttpServer } from './localServer';
import { putText, runFileStorage, storedText, useEmulator } from './support';

const emulator = useEmulator();

const THEIRS = 'the report another workflow stored at this key';
const OURS = Buffer.from('the report this workflow fetches from a slow server');

/** Resolves once the emulator has answered the existence check (the signed link) of `currentKey`. */
let currentKey = '';
let checked: Promise<void> = Promise.resolve();
let markChecked: () => void = () => undefined;

/** The source: headers at once, then its body only once the key was checked and another writer stored its file. */
const source = useLocalHttpServer((_request: IncomingMessage, response: ServerResponse) => {
	response.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': String(OURS.length) });
	response.flushHeaders();
	const fallback = new Promise<void>((resolve) => setTimeout(resolve, 5000).unref());
	void Promise.race([checked, fallback]).then(async () => {
		// A slow body: the other writer stores its file while this one is still on its way.
		await putText(emulator(), currentKey, THEIRS, 'other workflow');
		response.end(OURS);
	});
});

afterEach(() => emulator().adversary.setHooks(undefined));

describe.each([2, 3])('Upload with Refuse Existing File from a slow Source URL (node version %i)', (typeVersion) => {
	it("keeps the file another writer stored at the key while the source's body was read", async () => {
		currentKey = `slow-source-v${typeVersion}/report.txt`;
		checked = new Promise<void>((resolve) => (markChecked = resolve));
		const seen: string[] = [];
		emulator().adversary.setHooks({
			after: async (call: HookCall, reply) => {
				if (call.query.get('key') !== currentKey) return;
				seen.push(`${call.op} ${reply.status}`);
				if (call.op === 'signedUrl') markChecked();
			},
		});
		const result = await runFileStorage(
			emulator(),
			{
				resource: 'file',
				operation: 'upload',
				source: 'url',
				sourceUrl: `${source()}/report.txt`,
				key: currentKey,
				options: { refuseExisting: true, maxRetries: 0 },
			},
			{ items: [{ json: {} }], typeVersion, continueOnFail: true },
		);
		emulator().adversary.setHooks(undefined);
		// The key was free when checked (the API's 404), and only then did the other writer store.
		expect(seen[0]).toBe('signedUrl 404');
		expect(await storedText(emulator(), currentKey)).toBe(THEIRS);
		expect(result.items[0]?.json.error).toBeDefined();
	}, 60_000);
});
