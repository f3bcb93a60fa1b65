/**
 * A write's 2xx answer that a cache between n8n and the API marks as kept (X-Cache: HIT) is not
 * taken as the service's (transport/cacheMarks.ts), but the write went out: the service may have
 * carried it out (docs/api-choices.md, "What became of a failed write"). The error must not say
 * nothing was replaced or deleted, and the key is marked for the rest of the run, as for any write
 * whose outcome is unknown: the next item writing or deleting it is refused, naming the item.
 * Through n8n-core's engine over real HTTP: a gateway forwards everything to the emulator and
 * stamps the answer to the first write it forwards `X-Cache: HIT` (a "cache everything" rule).
 */
import { request, type IncomingMessage, type ServerResponse } from 'node:http';

import { useLocalHttpServer } from './localServer';
import { credentialsFor, fileItem, putText, runFileStorage, storedText, useEmulator } from './support';

const emulator = useEmulator();

const state = { stamped: 0, writes: 0 };

const gatewayUrl = useLocalHttpServer((req: IncomingMessage, res: ServerResponse) => {
	const upstreamUrl = new URL(emulator().url);
	const write = req.method === 'PUT' || req.method === 'DELETE';
	const upstream = request(
		{ host: upstreamUrl.hostname, port: upstreamUrl.port, method: req.method, path: req.url, headers: req.headers },
		(answer) => {
			const stamp = write && state.writes++ === 0 && (answer.statusCode ?? 0) < 300;
			if (stamp) state.stamped++;
			res.writeHead(answer.statusCode ?? 502, { ...answer.headers, ...(stamp ? { 'X-Cache': 'HIT', Age: '3' } : {}) });
			answer.pipe(res);
		},
	);
	upstream.on('error', () => res.destroy());
	req.pipe(upstream);
});

beforeEach(() => {
	state.stamped = 0;
	state.writes = 0;
});

const refusal = (key: string) => `A write of item 0 of this run to '${key}'`;

describe('A write answered 2xx with a cache\'s "kept" mark', () => {
	it.each([1, 3])(
		'Upload: the error says the file may have been stored, and the next item uploading the key is refused (version %i)',
		async (typeVersion) => {
			const key = `kept-write-v${typeVersion}/contract.txt`;
			const result = await runFileStorage(
				emulator(),
				{ resource: 'file', operation: 'upload', key, options: { maxRetries: 0 } },
				{
					typeVersion,
					continueOnFail: true,
					credentials: credentialsFor(emulator(), { baseUrl: gatewayUrl() }),
					items: [
						fileItem(Buffer.from('the first file'), 'contract.txt', 'text/plain'),
						fileItem(Buffer.from('the second file'), 'contract.txt', 'text/plain'),
					],
				},
			);
			expect(state.stamped).toBe(1);
			const [first, second] = result.items.map((item) => item.json);
			expect({ first: first.error, description: first.description }).toEqual({
				first: expect.stringMatching(/may have been carried out/),
				description: expect.not.stringMatching(/nothing was (deleted|replaced)/),
			});
			expect(second.error).toEqual(expect.stringContaining(refusal(key)));
			expect(await storedText(emulator(), key)).toBe('the first file');
		},
		60_000,
	);

	it('File → Delete: the error does not say nothing was deleted, and the next item deleting the key is refused', async () => {
		const key = 'kept-write-delete/contract.txt';
		await putText(emulator(), key, 'a file to delete', 'setup');
		const result = await runFileStorage(
			emulator(),
			{
				resource: 'file',
				operation: 'delete',
				fileKey: { __rl: true, mode: 'key', value: key },
				options: { maxRetries: 0 },
			},
			{
				typeVersion: 3,
				continueOnFail: true,
				credentials: credentialsFor(emulator(), { baseUrl: gatewayUrl() }),
				items: [{ json: {} }, { json: {} }],
			},
		);
		expect(state.stamped).toBe(1);
		const [first, second] = result.items.map((item) => item.json);
		expect({ first: first.error, description: first.description }).toEqual({
			first: expect.stringMatching(/may have been carried out/),
			description: expect.not.stringMatching(/nothing was (deleted|replaced)/),
		});
		expect(second.error).toEqual(expect.stringContaining(refusal(key)));
	}, 60_000);
});
