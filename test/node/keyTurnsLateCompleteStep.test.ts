/**
 * "A write that may still land" (docs/reliability.md, "Writes to one key take turns within a run";
 * docs/api-choices.md, "What became of a failed write"): a Complete one attempt of which ended
 * with its outcome unknown (a gateway's 504) marks its key for the rest of the run, and later
 * items of the run that would write there are refused, naming the item. The Multipart Upload
 * resource's own Complete is such a write: a later Complete on the same key must not report a file
 * stored that the earlier, late completion then replaces. Through n8n-core's engine over real
 * HTTP: a gateway answers the first Complete 504 at once and hands it to the service only once
 * another Complete was answered 200 (a gateway that does not cancel what it forwards).
 */

import { useLateWriteGateway } from './lateWriteGateway';
import { eventually } from './proxy';
import { credentialsFor, fileItem, runFileStorage, storedText, useEmulator } from './support';

const emulator = useEmulator();

const KEY = 'late-complete-step/contract.txt';
const FIRST = 'the first upload: its Complete answered 504 by the gateway, carried out later';
const SECOND = 'the second upload, completed after the first one failed';

const state = { heldUploadId: '', held: 0, landed: 0, release: () => undefined as void };
let released = Promise.resolve();

const gatewayUrl = useLateWriteGateway(emulator, {
	holds: (req) => {
		const url = req.url ?? '';
		if (!state.heldUploadId || !url.includes(`/${encodeURIComponent(state.heldUploadId)}/complete`)) return false;
		state.held++;
		return true;
	},
	later: (handOn) => void released.then(handOn),
	onAnswer: ({ req, status, late }) => {
		if (late && status === 200) state.landed++;
		if (!late && /\/complete/.test(req.url ?? '') && status === 200) state.release();
	},
});

/** Starts an upload of `text` in one part (straight to the emulator): its Complete's parameters. */
async function openUpload(text: string): Promise<{ uploadId: string; parts: string }> {
	const step = async (operation: string, parameters: Record<string, unknown>, bytes?: Buffer) =>
		await runFileStorage(
			emulator(),
			{ resource: 'multipartUpload', operation, ...parameters },
			bytes ? { items: [fileItem(bytes, 'part-1')] } : {},
		);
	const started = await step('start', { key: KEY, totalParts: 1, contentType: 'text/plain' });
	expect(started.error).toBeUndefined();
	const uploadId = started.items[0].json.uploadId as string;
	const part = await step('uploadPart', { uploadId, key: KEY, partNumber: 1, totalParts: 1 }, Buffer.from(text));
	expect(part.error).toBeUndefined();
	return { uploadId, parts: JSON.stringify([{ PartNumber: 1, ETag: part.items[0].json.ETag }]) };
}

describe('Multipart Upload → Complete, two items of one run completing uploads of one key', () => {
	it.each([1, 2, 3])(
		"a Complete answered 504 by a gateway while the service still carries it out (version %i): the next item's file, reported stored, is not replaced by it",
		async (typeVersion) => {
			const first = await openUpload(FIRST);
			const second = await openUpload(SECOND);
			state.heldUploadId = first.uploadId;
			state.held = 0;
			state.landed = 0;
			released = new Promise<void>((resolve) => (state.release = resolve));
			const result = await runFileStorage(
				emulator(),
				{
					resource: 'multipartUpload',
					operation: 'complete',
					uploadId: '={{ $json.uploadId }}',
					key: KEY,
					partsSource: 'json',
					partsJson: '={{ $json.parts }}',
					options: { maxRetries: 0 },
				},
				{
					typeVersion,
					continueOnFail: true,
					credentials: credentialsFor(emulator(), { baseUrl: gatewayUrl() }),
					items: [{ json: first }, { json: second }],
				},
			);
			// The held Complete reaches the service once the other one was answered 200 (or never).
			await eventually(() => state.landed > 0 || result.items.every((item) => item.json.error !== undefined), 10_000);
			await new Promise((resolve) => setTimeout(resolve, 300));
			expect(state.held).toBe(1);
			const holds = await storedText(emulator(), KEY);
			const named = holds === FIRST ? 'the first file' : holds === SECOND ? 'the second file' : String(holds);
			const reported = result.items.map((item, index) =>
				item.json.error === undefined
					? `stored ${index === 0 ? 'the first file' : 'the second file'}`
					: `failed: ${String(item.json.error)}`,
			);
			// Whatever the run reports stored must be what the key holds.
			for (const line of reported.filter((one) => one.startsWith('stored '))) {
				expect({ keyHolds: named, reported }).toEqual({ keyHolds: line.slice('stored '.length), reported });
			}
		},
		60_000,
	);
});
