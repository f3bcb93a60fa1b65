/**
 * Items of one version-3 run naming one key with Refuse Existing File take turns, "the one whose
 * turn comes first stores, the other is refused" (docs/reliability.md, "Writes to one key take
 * turns within a run"). An item whose Complete got no answer in time gives its turn back, but its
 * completion may still be carried out: the key stays marked for the rest of the run, and the next
 * item in line is refused instead of storing a file the late completion would replace. Through n8n-core's engine over real HTTP: a gateway that lets the service finish what
 * it forwarded when the node stops waiting (as nginx does with proxy_ignore_client_abort), and the
 * emulator's hooks for a service whose completion of a large upload takes longer than the
 * node's Timeout (its Cancel, meanwhile, finds no open upload: the API's own 404).
 */
import { createHash } from 'node:crypto';
import { request, type IncomingMessage, type ServerResponse } from 'node:http';

import type { HookCall, HookAnswer } from '../emulator/history';
import { useLocalHttpServer } from './localServer';
import { eventually } from './proxy';
import { MIB, credentialsFor, fileItem, randomFile, runFileStorage, useEmulator } from './support';

const emulator = useEmulator();
const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');

/** Forwards everything to the emulator; a request the client gives up on still runs to its end upstream. */
function useFinishingGateway(): () => string {
	const handle = (req: IncomingMessage, res: ServerResponse) => {
		const upstreamUrl = new URL(emulator().url);
		const upstream = request(
			{ host: upstreamUrl.hostname, port: upstreamUrl.port, method: req.method, path: req.url, headers: req.headers },
			(answer) => {
				if (res.destroyed) return answer.resume();
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
			},
		);
		upstream.on('error', () => res.destroy());
		// The client leaving does not cancel the upstream request: the service finishes it.
		req.pipe(upstream);
	};
	return useLocalHttpServer(handle);
}

const gateway = useFinishingGateway();

afterEach(() => emulator().adversary.setHooks(undefined));

describe('Multipart Upload, two items of one run with the same key', () => {
	it.each([true, false])(
		"a Complete still being carried out when its item gave up (Refuse Existing File %s): the next item's file, reported stored, is not replaced by it",
		async (refuseExisting) => {
			const key = `turn-late-${String(refuseExisting)}/report.bin`;
			const large = randomFile(6 * MIB);
			const small = Buffer.from('the second attachment, stored after the first failed');
			// The item whose turn comes first: its upload's Complete is the one carried out late.
			let firstUploadId: string | undefined;
			let held = false;
			let landedLate = false;
			let release: () => void = () => undefined;
			const nextStored = new Promise<void>((resolve) => (release = resolve));
			const ofFirst = (call: HookCall) =>
				firstUploadId !== undefined && call.path.split('/').includes(encodeURIComponent(firstUploadId));
			emulator().adversary.setHooks({
				before: async (call: HookCall): Promise<HookAnswer | undefined> => {
					if (call.op === 'complete' && ofFirst(call) && !held) {
						held = true;
						// Assembling the file (a 60 GiB one, on the service) takes longer than the node waits.
						let timer: NodeJS.Timeout | undefined;
						await Promise.race([nextStored, new Promise((resolve) => (timer = setTimeout(resolve, 20_000)))]);
						clearTimeout(timer);
						return undefined;
					}
					if (call.op === 'cancel' && ofFirst(call)) {
						// The upload is being completed: it is no longer open, so the Cancel finds nothing.
						return {
							status: 404,
							headers: { 'Content-Type': 'application/json' },
							body: JSON.stringify({ error: 'Resource not found', message: 'Upload not found' }),
						};
					}
					return undefined;
				},
				after: async (call: HookCall, reply: { status: number; body: unknown }) => {
					if (call.op === 'start' && firstUploadId === undefined && reply.status === 200) {
						firstUploadId = (reply.body as { data?: { uploadId?: string } }).data?.uploadId;
					}
					if (call.op === 'complete' && ofFirst(call) && reply.status === 200) landedLate = true;
					if (call.op === 'complete' && !ofFirst(call) && reply.status === 200) release();
				},
			});
			const result = await runFileStorage(
				emulator(),
				{
					resource: 'file',
					operation: 'multipartUpload',
					key,
					partSize: 5,
					options: { refuseExisting, timeout: 1, maxRetries: 0, parallelRequests: 4 },
				},
				{
					typeVersion: 3,
					continueOnFail: true,
					credentials: credentialsFor(emulator(), { baseUrl: gateway() }),
					items: [fileItem(large, 'report.bin'), fileItem(small, 'report.bin')],
				},
			);
			// The late completion is given time to land (it waits for the second item's file).
			await eventually(() => landedLate || !held, 25_000);
			await new Promise((resolve) => setTimeout(resolve, 500));
			emulator().adversary.setHooks(undefined);
			expect(held).toBe(true);
			const stored = await emulator().readObject('my-bucket', 'us-east-1', key);
			const named = (bytes: Buffer | undefined) =>
				bytes === undefined
					? 'nothing'
					: md5(bytes) === md5(small)
						? 'the small file'
						: md5(bytes) === md5(large)
							? 'the large file'
							: 'other bytes';
			const reported = result.items.map((item) =>
				item.json.error === undefined
					? `stored ${named(item.json.size === small.length ? small : large)}`
					: `failed: ${String(item.json.error)}`,
			);
			// The item whose turn came second is refused, naming the first, whose completion may still land.
			const errors = result.items.map((item) => String(item.json.error));
			const first = errors.findIndex((error) => error.startsWith('Completion of the multipart upload'));
			expect({ first, second: errors[1 - first] }).toEqual({
				first: expect.any(Number),
				second: expect.stringContaining(`A write of item ${first} of this run to '${key}'`),
			});
			// Whatever the run reports stored must be what the key holds.
			for (const line of reported.filter((one) => one.startsWith('stored '))) {
				expect({ keyHolds: named(stored?.body), reported }).toEqual({
					keyHolds: line.slice('stored '.length),
					reported,
				});
			}
		},
		90_000,
	);
});
