import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { once } from 'node:events';

import { harnessTempDir, loadPackage, runNode, storeBinaryFile } from './index';

const fixture = resolve(__dirname, 'fixture-package');
const MiB = 1024 * 1024;
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

const echo = (options: Omit<Parameters<typeof runNode>[0], 'packageDir' | 'nodeType'>) =>
	runNode({ packageDir: fixture, nodeType: 'echoBinary', ...options });

describe('package loading', () => {
	it('loads the fixture package with n8n names and its default version', async () => {
		const pkg = await loadPackage(fixture);
		expect(pkg.packageName).toBe('n8n-nodes-harness-fixture');
		expect(Object.keys(pkg.nodeTypes.getKnownTypes()).sort()).toEqual([
			'n8n-nodes-harness-fixture.echoBinary',
			'n8n-nodes-harness-fixture.httpProbe',
		]);
		expect(pkg.credentialTypes.getSupportedNodes('probeApi')).toEqual(['n8n-nodes-harness-fixture.httpProbe']);
		// Cached: the same loader object on every call.
		expect(await loadPackage(fixture)).toBe(pkg);
	});

	it('names the missing node when the type is unknown', async () => {
		await expect(runNode({ packageDir: fixture, nodeType: 'nope', parameters: {} })).rejects.toThrow(
			/has no node "nope" \(has: echoBinary, httpProbe\)/,
		);
	});
});

describe('binary data', () => {
	it('streams a 5 MiB in-memory binary from the filesystem store in 1 MiB chunks', async () => {
		const data = randomBytes(5 * MiB + 123);
		const result = await echo({
			parameters: { label: '={{ $json.name }}' },
			items: [{ json: { name: 'five' }, binary: { data: { data, fileName: 'five.bin' } } }],
		});

		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		const [item] = result.items;
		expect(item.json).toMatchObject({
			label: 'five', // the expression went through n8n's (legacy) expression engine
			size: data.length,
			sha256: sha256(data),
			stored: true,
			chunks: 6,
			maxChunk: MiB,
			fileName: 'five.bin',
			mimeType: 'application/octet-stream',
			typeVersion: 2,
		});
		// Output binary written by prepareBinaryData lives in the store, not inline.
		expect(item.binary?.digest.id).toMatch(/^filesystem-v2:/);
		expect((await result.readBinary(item, 'digest')).toString()).toBe(sha256(data));
		expect(await result.binarySha256(item, 'digest')).toBe(sha256(sha256(data)));
	});

	it('streams a file from disk into the store and back out (stored output copy)', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'harness-test-'));
		try {
			const filePath = join(dir, 'big.dat');
			const chunk = randomBytes(MiB);
			const hash = createHash('sha256');
			const out = createWriteStream(filePath);
			for (let i = 0; i < 12; i++) {
				hash.update(chunk);
				if (!out.write(chunk)) await once(out, 'drain');
			}
			out.end();
			await once(out, 'finish');
			const expected = hash.digest('hex');

			const result = await echo({
				parameters: { outputCopy: 'stored' },
				items: [{ binary: { data: { filePath, mimeType: 'application/x-test' } } }],
			});
			const [item] = result.items;
			expect(item.json).toMatchObject({
				size: 12 * MiB,
				sha256: expected,
				chunks: 12,
				fileName: 'big.dat',
				mimeType: 'application/x-test',
			});
			expect(await result.binarySha256(item, 'copy')).toBe(expected);

			// Same unchanged file again: the stored copy is reused rather than copied again.
			const again = await echo({
				parameters: {},
				items: [{ binary: { data: { filePath, mimeType: 'application/x-test' } } }],
			});
			expect(again.items[0].json.sha256).toBe(expected);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it('passes inline base64 binaries (no id) like a Code node makes them', async () => {
		const data = Buffer.from('hello inline');
		const result = await echo({
			parameters: { outputCopy: 'inline' },
			items: [{ binary: { data: { data, base64Inline: true, fileName: 'hi.txt', mimeType: 'text/plain' } } }],
		});
		const [item] = result.items;
		expect(item.json).toMatchObject({ stored: false, size: data.length, sha256: sha256(data) });
		expect(item.binary?.copy.id).toBeUndefined();
		expect((await result.readBinary(item, 'copy')).toString()).toBe('hello inline');
		expect(await result.binarySha256(item, 'copy')).toBe(sha256(data));
	});

	it("binaryMode 'combined': inputs arrive under json._files and outputs are moved there, by n8n-core's conversion", async () => {
		const data = randomBytes(3000);
		const items = [{ json: { n: 1 }, binary: { data: { data, fileName: 'c.bin' } } }];
		// n8n's assertBinaryData reads a path into the JSON in combined mode.
		const result = await echo({ binaryMode: 'combined', parameters: { binaryPropertyName: '_files.data' }, items });
		expect(result.error).toBeUndefined();
		const [item] = result.items;
		expect(item.json).toMatchObject({ size: data.length, sha256: sha256(data), fileName: 'c.bin' });
		expect(item.binary).toBeUndefined();
		expect((item.json._files as Record<string, unknown>).digest).toMatchObject({ fileName: 'digest.txt' });
		expect((await result.readBinary(item, 'digest')).toString()).toBe(sha256(data));
		// The same path in separate mode (the default) is no binary field.
		const separate = await echo({ parameters: { binaryPropertyName: '_files.data' }, items });
		expect(separate.error?.message).toMatch(/no binary field '_files\.data'/);
	});

	it('stores a file without running a node', async () => {
		const binary = await storeBinaryFile(join(fixture, 'package.json'));
		expect(binary).toMatchObject({ fileName: 'package.json', mimeType: 'application/json' });
		expect(binary.id).toMatch(/^filesystem-v2:/);
		expect(existsSync(harnessTempDir)).toBe(true);
	});

	it('runs several items and an older type version', async () => {
		const result = await echo({
			typeVersion: 1,
			parameters: {},
			items: [1, 2, 3].map((n) => ({ binary: { data: { data: Buffer.alloc(n, n) } } })),
		});
		expect(result.items.map((item) => item.json.size)).toEqual([1, 2, 3]);
		expect(result.items.every((item) => item.json.typeVersion === 1)).toBe(true);
	});
});

describe('errors', () => {
	it('returns the NodeOperationError of a failed node', async () => {
		const result = await echo({ parameters: { fail: true, label: 'boom' } });
		expect(result.items).toEqual([]);
		expect(result.outputs).toEqual([]);
		expect(result.error).toBeInstanceOf(Error);
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toBe('Failing on purpose: boom');
		expect(result.error?.description).toBe('The fail flag was set');
		expect(result.runData['Echo Binary'][0].executionStatus).toBe('error');
	});

	it('turns the error into an item with continueOnFail', async () => {
		const result = await echo({
			parameters: { fail: '={{ $json.bad }}' },
			continueOnFail: true,
			items: [{ json: { bad: true } }, { json: { bad: false }, binary: { data: { data: Buffer.from('x') } } }],
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toEqual({ error: 'Failing on purpose: ' });
		expect(result.items[1].json.size).toBe(1);
	});

	it('reports a missing binary field as the node error', async () => {
		const result = await echo({ parameters: {} });
		expect(result.error?.message).toMatch(/data/);
	});

	it('passes the input through and still reports the error when continueOnFail meets a throw', async () => {
		// httpProbe reads its credential outside its own try/catch, so n8n handles the throw.
		const result = await runNode({
			packageDir: fixture,
			nodeType: 'httpProbe',
			parameters: {},
			continueOnFail: true,
			items: [{ json: { a: 1 } }],
		});
		expect(result.items.map((item) => item.json)).toEqual([{ a: 1 }]);
		expect(result.error?.message).toMatch(/credentials/);
	});

	it('rejects, as n8n refuses to start, when a required parameter is empty', async () => {
		await expect(echo({ parameters: { binaryPropertyName: '' } })).rejects.toThrow(/issues/);
	});

	it('rejects when the run exceeds timeoutMs', async () => {
		await expect(
			withServer(
				() => {}, // never answers
				(baseUrl) =>
					runNode({
						packageDir: fixture,
						nodeType: 'httpProbe',
						parameters: {},
						credentials: { probeApi: { token: 't', baseUrl } },
						timeoutMs: 300,
					}),
			),
		).rejects.toThrow(/did not finish within 300 ms/);
	});
});

describe('credentials and HTTP', () => {
	it("sends real HTTP with the credential's function authenticate applied", async () => {
		const seen: Array<{ method?: string; url?: string; headers: IncomingHttpHeaders; body: string }> = [];
		const result = await withServer(
			async (req, res) => {
				let body = '';
				for await (const chunk of req) body += chunk;
				seen.push({ method: req.method, url: req.url, headers: req.headers, body });
				res.setHeader('content-type', 'application/json');
				res.end(JSON.stringify({ ok: true, token: req.headers['x-probe-token'] }));
			},
			(baseUrl) =>
				runNode({
					packageDir: fixture,
					nodeType: 'httpProbe',
					parameters: { path: '/echo?x=1' },
					credentials: { probeApi: { token: 'secret-token', baseUrl } },
					items: [{ json: { a: 1 } }, { json: { a: 2 } }],
				}),
		);

		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json)).toEqual([
			{ ok: true, token: 'secret-token' },
			{ ok: true, token: 'secret-token' },
		]);
		expect(seen).toHaveLength(2);
		const [first] = seen;
		expect(first.method).toBe('POST');
		expect(first.url).toBe('/echo?x=1');
		expect(first.headers['x-probe-tag']).toBe('default-tag'); // credential default filled in
		expect(JSON.parse(first.body)).toEqual({ item: 0, a: 1 });
		expect(first.headers['x-probe-signature']).toMatch(/^[0-9a-f]{64}$/);
	});

	it('applies a generic (declarative) authenticate through the expression engine', async () => {
		const seen: Array<{ url?: string; auth?: string }> = [];
		const result = await withServer(
			(req, res) => {
				seen.push({ url: req.url, auth: req.headers.authorization });
				res.setHeader('content-type', 'application/json');
				res.end('{"ok":true}');
			},
			(baseUrl) =>
				runNode({
					packageDir: fixture,
					nodeType: 'httpProbe',
					parameters: { authentication: 'generic' },
					credentials: { probeGenericApi: { token: 'gen', baseUrl } },
				}),
		);
		expect(result.error).toBeUndefined();
		expect(seen).toEqual([{ url: '/echo?via=generic', auth: 'Bearer gen' }]);
	});

	it('surfaces an HTTP error as NodeApiError with httpCode', async () => {
		const result = await withServer(
			(_req, res) => {
				res.statusCode = 403;
				res.setHeader('content-type', 'application/json');
				res.end('{"message":"nope"}');
			},
			(baseUrl) =>
				runNode({
					packageDir: fixture,
					nodeType: 'httpProbe',
					parameters: {},
					credentials: { probeApi: { token: 't', baseUrl } },
				}),
		);
		expect(result.items).toEqual([]);
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.httpCode).toBe('403');
	});

	it('re-authenticates and resends once after a 401, as n8n does', async () => {
		const tokens: Array<string | string[] | undefined> = [];
		const result = await withServer(
			(req, res) => {
				tokens.push(req.headers['x-probe-token']);
				res.statusCode = tokens.length === 1 ? 401 : 200;
				res.setHeader('content-type', 'application/json');
				res.end(JSON.stringify({ attempt: tokens.length }));
			},
			(baseUrl) =>
				runNode({
					packageDir: fixture,
					nodeType: 'httpProbe',
					parameters: {},
					credentials: { probeApi: { token: 't401', baseUrl } },
				}),
		);
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toEqual({ attempt: 2 });
		expect(tokens).toEqual(['t401', 't401']);
	});

	it('fails like n8n when the credential is not given', async () => {
		const result = await runNode({ packageDir: fixture, nodeType: 'httpProbe', parameters: {} });
		expect(result.error?.message).toMatch(/credentials/i);
	});
});

// Needs `npm run build` (npm test builds first); skipped on a tree without dist/.
const repoRoot = resolve(__dirname, '..', '..');
const built = existsSync(join(repoRoot, 'dist', 'nodes', 'FileStorage', 'FileStorage.node.js'));
(built ? describe : describe.skip)('this repository (default packageDir)', () => {
	it('loads the package as n8n names it', async () => {
		const pkg = await loadPackage(repoRoot);
		expect(Object.keys(pkg.nodeTypes.getKnownTypes())).toEqual([
			'n8n-nodes-file-storage.fileStorage',
			'n8n-nodes-file-storage.fileStorageTrigger',
		]);
		expect(pkg.credentialTypes.recognizes('fileStorageApi')).toBe(true);
	});

	it("runs the real node and signs with the real credential's authenticate", async () => {
		const seen: IncomingHttpHeaders[] = [];
		const result = await withServer(
			(req, res) => {
				seen.push(req.headers);
				res.statusCode = 403;
				res.setHeader('content-type', 'application/json');
				res.end('{}');
			},
			(baseUrl) =>
				runNode({
					parameters: { resource: 'bucket', operation: 'listContents', bucketName: 'b1' },
					credentials: { fileStorageApi: { accessKey: 'AK', secretKey: 'SK', baseUrl } },
				}),
		);
		expect(seen.length).toBeGreaterThan(0);
		expect(seen[0]['x-access-key']).toBe('AK');
		expect(result.error?.httpCode).toBe('403');
	});
});

async function withServer<T>(
	handler: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void | Promise<void>,
	body: (baseUrl: string) => Promise<T>,
): Promise<T> {
	const server: Server = createServer((req, res) => void handler(req, res));
	server.listen(0, '127.0.0.1');
	await once(server, 'listening');
	const { port } = server.address() as AddressInfo;
	try {
		return await body(`http://127.0.0.1:${port}`);
	} finally {
		server.closeAllConnections();
		server.close();
		await once(server, 'close');
	}
}
