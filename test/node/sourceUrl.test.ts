import { constants } from 'node:buffer';
import { gzipSync } from 'node:zlib';

import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../harness';
import { useProxy, viaProxy } from './proxy';
import {
	SOURCE_TOKEN,
	redirectTo,
	startSourceServer,
	usePartialContentServer,
	type SourceServer,
} from './sourceServer';
import { BUCKET, MIB, randomFile, runFileStorage, sha256, useEmulator } from './support';

const emulator = useEmulator();
const proxy = useProxy(emulator);
const small = randomFile(3 * MIB + 5);
const large = randomFile(20 * MIB + 123);
/** Compresses well, so its gzip body is much shorter than the file. */
const text = Buffer.from('a line of text that packs well\n'.repeat(400_000));
const SECRET_QUERY = 'X-Signature=query-secret-91c2&Expires=1';
const API_KEY = 'x-api-key-secret-5d1e';
let source: SourceServer;
/** Another origin (another port): where a source may redirect. */
let elsewhere: SourceServer;

beforeAll(async () => {
	source = await startSourceServer({
		'small.mp4': small,
		'large.mp4': large,
		'text.txt': text,
		'empty.mp4': Buffer.alloc(0),
	});
	elsewhere = await startSourceServer({ 'small.mp4': small });
});
afterAll(async () => {
	await source.stop();
	await elsewhere.stop();
});
beforeEach(() => {
	emulator().resetStats();
	source.requests.splice(0);
	elsewhere.requests.splice(0);
});

/** Resolves true once the source saw the client close the request before its end, false after `ms`. */
async function closedByClient(request: { abandoned: Promise<void> } | undefined, ms = 5000): Promise<boolean> {
	if (!request) return false;
	let timer: NodeJS.Timeout | undefined;
	const gaveUp = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
	try {
		return await Promise.race([request.abandoned.then(() => true), gaveUp]);
	} finally {
		clearTimeout(timer);
	}
}

const SOURCE_HEADERS = {
	sourceHeaders: {
		header: [
			{ name: 'Authorization', value: SOURCE_TOKEN },
			{ name: 'X-Api-Key', value: API_KEY },
		],
	},
};

const fromUrl = async (url: string, extra: INodeParameters = {}, operation = 'upload', continueOnFail = false) =>
	await runFileStorage(
		emulator(),
		{ resource: 'file', operation, source: 'url', sourceUrl: url, ...extra },
		{ continueOnFail },
	);

async function stored(key: string) {
	return await emulator().objectSha256(BUCKET.bucketName, BUCKET.region, key);
}

function expectNothingLeft() {
	expect(emulator().listOpenUploads()).toEqual([]);
}

describe('Upload from a URL', () => {
	it('with Content-Length: stored byte-identical under the last path segment; the output names the URL without its query', async () => {
		const result = await fromUrl(`${source.url}/file/small.mp4?${SECRET_QUERY}`);
		expect(result.error).toBeUndefined();
		const json = result.items[0].json;
		expect(json).toMatchObject({ key: 'small.mp4', size: small.length, source: 'url', content_type: 'video/mp4' });
		expect(json.url).toBe(`${source.url}/file/small.mp4`);
		expect(JSON.stringify(result.items)).not.toContain('query-secret');
		expect(await stored('small.mp4')).toBe(sha256(small));
		// One request, as Upload sends files below its threshold; the source was asked for identity.
		expect(emulator().stats().requests.start).toBe(0);
		expect(source.requests[0].headers['accept-encoding']).toBe('identity');
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
		// Its Content-Length confirmed the size: only an unconfirmed one is flagged.
		expect(json.sizeConfirmed).toBeUndefined();
	});

	it('with Content-Length above the threshold: in parts, Start told the exact part count', async () => {
		const result = await runNode({
			// Version 2 defaults (8 MiB parts); version 3 parts are 24 MiB.
			typeVersion: 2,
			credentials: viaProxy(emulator(), proxy()),
			parameters: {
				...BUCKET,
				resource: 'file',
				operation: 'upload',
				source: 'url',
				sourceUrl: `${source.url}/file/large.mp4`,
				key: 'big/known.mp4',
				options: { multipartThreshold: 8 },
			},
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ partCount: 3, partSize: 8 * MIB, source: 'url' });
		expect(await stored('big/known.mp4')).toBe(sha256(large));
		const start = proxy().exchanges.find((e) => e.operation === 'start');
		expect(start?.target).toMatch(/[?&]totalParts=3(&|$)/);
	});

	it.each(['upload', 'multipartUpload'])(
		'without Content-Length (chunked), %s: refused with Allow Source Without Content-Length off, before anything is started on the service',
		async (operation) => {
			const url = `${source.url}/chunked/large.mp4`;
			const result = await fromUrl(
				`${url}?${SECRET_QUERY}`,
				{ key: 'refused.mp4', allowSourceWithoutLength: false },
				operation,
			);
			expect(result.error?.message).toBe(
				`The source URL '${url}' did not state its length (no Content-Length), so a cut-off body could not be told from the whole file`,
			);
			expect(result.error?.description).toMatch(/Nothing was uploaded\..*Allow Source Without Content-Length/);
			expect(`${result.error?.message} ${result.error?.description}`).not.toContain('query-secret');
			expect(source.requests).toHaveLength(1);
			const requests = emulator().stats().requests;
			expect(requests.start + requests.upload + requests.uploadPart).toBe(0);
			expect(await stored('refused.mp4')).toBeUndefined();
		},
	);

	it('without Content-Length (chunked), allowed: in parts; Start announces 10000 parts, the most the service allows, and Complete has the real ones; the output says sizeConfirmed: false', async () => {
		const result = await runNode({
			typeVersion: 2,
			credentials: viaProxy(emulator(), proxy()),
			parameters: {
				...BUCKET,
				resource: 'file',
				operation: 'upload',
				source: 'url',
				sourceUrl: `${source.url}/chunked/large.mp4`,
				key: 'big/chunked.mp4',
				allowSourceWithoutLength: true,
			},
		});
		expect(result.error).toBeUndefined();
		expect(source.requests[0].headers['content-length']).toBeUndefined();
		expect(result.items[0].json).toMatchObject({
			partCount: 3,
			partSize: 8 * MIB,
			size: large.length,
			sizeConfirmed: false,
		});
		expect(await stored('big/chunked.mp4')).toBe(sha256(large));
		const targets = proxy().exchanges.map((e) => `${e.operation} ${e.target}`);
		expect(targets.find((t) => t.startsWith('start '))).toMatch(/[?&]totalParts=10000(&|$)/);
		expect(targets.filter((t) => t.startsWith('uploadPart '))).toHaveLength(3);
		expectNothingLeft();
	});

	it('without Content-Length, allowed, a body that fits in one part goes in one request', async () => {
		const result = await fromUrl(`${source.url}/chunked/small.mp4`, {
			key: 'one-request.mp4',
			allowSourceWithoutLength: true,
		});
		expect(result.error).toBeUndefined();
		expect(emulator().stats().requests.start).toBe(0);
		expect(emulator().stats().requests.upload).toBe(1);
		expect(await stored('one-request.mp4')).toBe(sha256(small));
	});

	it('without Content-Length, allowed, Multipart Upload learns the count when the body ends within two parts', async () => {
		const result = await runNode({
			// Version 2 reads two parts ahead; version 3 one, so that no upload holds a body while it waits for Upload Memory.
			typeVersion: 2,
			credentials: viaProxy(emulator(), proxy()),
			parameters: {
				...BUCKET,
				resource: 'file',
				operation: 'multipartUpload',
				source: 'url',
				sourceUrl: `${source.url}/chunked/large.mp4`,
				key: 'big/two-parts.mp4',
				partSize: 16,
				allowSourceWithoutLength: true,
			},
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ partCount: 2, partSize: 16 * MIB });
		const start = proxy().exchanges.find((e) => e.operation === 'start');
		expect(start?.target).toMatch(/[?&]totalParts=2(&|$)/);
		expect(await stored('big/two-parts.mp4')).toBe(sha256(large));
	});

	it('follows a redirect of the source', async () => {
		const result = await fromUrl(`${source.url}/redirect/small.mp4?${SECRET_QUERY}`, { key: 'redirected.mp4' });
		expect(result.error).toBeUndefined();
		expect(source.requests.map((r) => r.path)).toEqual(['/redirect/small.mp4', '/file/small.mp4']);
		expect(await stored('redirected.mp4')).toBe(sha256(small));
	});

	it('passes the Source Headers (an Authorization header) and never outputs them', async () => {
		const result = await fromUrl(`${source.url}/auth/small.mp4`, {
			key: 'with-auth.mp4',
			sourceHeaders: { header: [{ name: 'Authorization', value: SOURCE_TOKEN }] },
		});
		expect(result.error).toBeUndefined();
		expect(source.requests[0].headers.authorization).toBe(SOURCE_TOKEN);
		expect(JSON.stringify(result.items)).not.toContain('source-token');
		expect(await stored('with-auth.mp4')).toBe(sha256(small));
	});
});

describe('Upload from a URL that redirects', () => {
	it('a redirect to another origin gets none of the Source Headers (Authorization, custom ones)', async () => {
		const url = redirectTo(source, `${elsewhere.url}/file/small.mp4`);
		const result = await fromUrl(url, { key: 'cross-origin.mp4', ...SOURCE_HEADERS });
		expect(result.error).toBeUndefined();
		expect(source.requests[0].headers.authorization).toBe(SOURCE_TOKEN);
		expect(source.requests[0].headers['x-api-key']).toBe(API_KEY);
		expect(elsewhere.requests).toHaveLength(1);
		expect(elsewhere.requests[0].headers.authorization).toBeUndefined();
		expect(elsewhere.requests[0].headers['x-api-key']).toBeUndefined();
		expect(JSON.stringify(elsewhere.requests[0].headers)).not.toMatch(/source-token|x-api-key-secret/);
		expect(await stored('cross-origin.mp4')).toBe(sha256(small));
	});

	it('a redirect within the origin keeps the Source Headers', async () => {
		const url = redirectTo(source, `${source.url}/auth/small.mp4`);
		const result = await fromUrl(url, { key: 'same-origin.mp4', ...SOURCE_HEADERS });
		expect(result.error).toBeUndefined();
		expect(source.requests.map((r) => r.path)).toEqual([new URL(url).pathname, '/auth/small.mp4']);
		expect(source.requests[1].headers.authorization).toBe(SOURCE_TOKEN);
		expect(source.requests[1].headers['x-api-key']).toBe(API_KEY);
		expect(await stored('same-origin.mp4')).toBe(sha256(small));
	});

	it('once a redirect left the origin, the Source Headers stay off even when a later one comes back', async () => {
		const back = `${source.url}/file/small.mp4`;
		const url = redirectTo(source, redirectTo(elsewhere, back));
		const result = await fromUrl(url, { key: 'round-trip.mp4', ...SOURCE_HEADERS });
		expect(result.error).toBeUndefined();
		expect(source.requests.map((r) => r.path)).toEqual([new URL(url).pathname, '/file/small.mp4']);
		expect(elsewhere.requests[0].headers.authorization).toBeUndefined();
		expect(source.requests[1].headers.authorization).toBeUndefined();
		expect(source.requests[1].headers['x-api-key']).toBeUndefined();
		expect(await stored('round-trip.mp4')).toBe(sha256(small));
	});

	it('more than 5 redirects fail, naming the URL without its query', async () => {
		const result = await fromUrl(`${source.url}/loop/small.mp4?${SECRET_QUERY}`, { key: 'loop.mp4' });
		expect(result.error?.message).toBe(
			`The source URL '${source.url}/loop/small.mp4' could not be reached: it redirected more than 5 times`,
		);
		expect(source.requests).toHaveLength(6);
		expect(emulator().stats().requests.upload + emulator().stats().requests.start).toBe(0);
	});

	it('a redirect to a URL that is not http(s) is refused, without its user info', async () => {
		const result = await fromUrl(redirectTo(source, 'ftp://someone:ftp-secret@files.example/a.mp4?sig=1'), {
			key: 'ftp.mp4',
			...SOURCE_HEADERS,
		});
		// The URL typed carries the target in its path; what the node says of the redirect must not.
		const [typed, target] = String(result.error?.message).split(' redirected to ');
		expect(typed).toMatch(/^The source URL 'http:\/\/127\.0\.0\.1:\d+\/to\/ftp/);
		expect(target).toBe("a URL that is not http(s): 'ftp://files.example/a.mp4'");
		expect(result.error?.description).toMatch(/Nothing was uploaded/);
		expect(result.error?.description).not.toMatch(/ftp-secret|someone|sig=/);
		expect(source.requests).toHaveLength(1);
	});
});

describe('Upload from a URL that fails', () => {
	it("a 404 of the source is named as the source's, before anything reaches the service", async () => {
		const result = await fromUrl(`${source.url}/status/404?${SECRET_QUERY}`, { key: 'x.mp4' });
		expect(result.error?.message).toBe(`The source URL '${source.url}/status/404' answered HTTP 404 (Not Found)`);
		expect(result.error?.description).toMatch(/Nothing was uploaded/);
		// n8n keeps the node's parameters with its errors, as typed; what the node writes leaves the query out.
		expect(`${result.error?.message} ${result.error?.description}`).not.toContain('query-secret');
		expect(emulator().stats().requests.upload + emulator().stats().requests.start).toBe(0);
	});

	it('a 500 of the source, after the retries', async () => {
		const result = await fromUrl(`${source.url}/status/500`, { key: 'x.mp4', options: { maxRetries: 1 } });
		expect(result.error?.message).toBe(
			`The source URL '${source.url}/status/500' answered HTTP 500 (Internal Server Error) (2 attempts)`,
		);
		expect(source.requests).toHaveLength(2);
	});

	it('a 401 of the source points at the Source Headers', async () => {
		const result = await fromUrl(`${source.url}/auth/small.mp4`, { key: 'x.mp4' });
		expect(result.error?.message).toMatch(/answered HTTP 401 \(Unauthorized\)$/);
		expect(result.error?.description).toMatch(/Source Headers/);
	});

	it('an unreachable URL', async () => {
		const closed = await startSourceServer({});
		const url = `${closed.url}/file/gone.mp4`;
		await closed.stop();
		const result = await fromUrl(url, { options: { maxRetries: 0 } });
		expect(result.error?.message).toBe(`The source URL '${url}' could not be reached: the connection was refused`);
	});

	it.each([
		['with Content-Length: 0', 'file', 'upload'],
		['chunked, with no data', 'chunked', 'upload'],
		['chunked, with no data, for Multipart Upload', 'chunked', 'multipartUpload'],
	])(
		'a source URL whose body is empty (0 bytes, %s) fails; nothing is started on the service',
		async (_label, mode, operation) => {
			const url = `${source.url}/${mode}/empty.mp4`;
			// The framing is what the title says: an announced 0, or no length at all.
			const answer = await fetch(url);
			expect([answer.headers.get('content-length'), answer.headers.get('transfer-encoding')]).toEqual(
				mode === 'file' ? ['0', null] : [null, 'chunked'],
			);
			expect((await answer.arrayBuffer()).byteLength).toBe(0);
			source.requests.splice(0);

			const result = await fromUrl(
				`${url}?${SECRET_QUERY}`,
				{ key: 'empty.mp4', allowSourceWithoutLength: true },
				operation,
			);
			expect(result.error?.message).toBe(`The source URL '${url}' is empty (0 bytes)`);
			expect(source.requests).toHaveLength(1);
			const requests = emulator().stats().requests;
			expect(requests.start + requests.upload + requests.uploadPart).toBe(0);
			expectNothingLeft();
			expect(await stored('empty.mp4')).toBeUndefined();
		},
	);

	it("an empty URL is refused before any request: typed, n8n does not start the node; from an expression, the node says 'URL' is empty", async () => {
		await expect(fromUrl('', { key: 'x.mp4' })).rejects.toThrow(/Parameter "URL" is required/);
		for (const expression of ['={{ "" }}', '={{ "   " }}']) {
			const result = await fromUrl(expression, { key: 'x.mp4' });
			expect(result.error?.message).toBe("The parameter 'URL' is empty");
			expect(result.error?.description).toMatch(/full address of the file/);
		}
		expect(source.requests).toHaveLength(0);
		expect(Object.values(emulator().stats().requests).reduce((a, b) => a + b, 0)).toBe(0);
	});

	it('a URL that is not http(s) is refused before any request', async () => {
		const result = await fromUrl('ftp://example.com/a.mp4');
		expect(result.error?.message).toBe("The parameter 'URL' is not an http(s) URL: 'ftp://example.com/a.mp4'");
	});

	it.each([
		['not http(s)', 'ftp://someone:url-secret@example.com/a.mp4?sig=query-secret', 'ftp://example.com/a.mp4'],
		['unparsable', 'https://someone:url-secret@exa mple.com/a.mp4?sig=query-secret', 'https://exa mple.com/a.mp4'],
		['without a scheme', 'someone:url-secret@example.com/a.mp4', 'example.com/a.mp4'],
	])('a URL %s is refused without its user info or query', async (_label, url, shown) => {
		const result = await fromUrl(url);
		expect(result.error?.message).toBe(`The parameter 'URL' is not an http(s) URL: '${shown}'`);
		expect(`${result.error?.message} ${result.error?.description}`).not.toMatch(/url-secret|someone|query-secret/);
	});

	it('a failing http URL with user info is named without it', async () => {
		const url = `http://someone:url-secret@${source.url.slice('http://'.length)}/status/404?${SECRET_QUERY}`;
		const result = await fromUrl(url, { key: 'x.mp4', options: { maxRetries: 0 } });
		expect(result.error?.message).toBe(`The source URL '${source.url}/status/404' answered HTTP 404 (Not Found)`);
		expect(`${result.error?.message} ${result.error?.description}`).not.toMatch(/url-secret|someone|query-secret/);
	});

	it('a URL without a file name and no Key', async () => {
		const result = await fromUrl(`${source.url}/`);
		expect(result.error?.message).toBe(
			"The parameter 'Path in Folder' is empty and the URL has no name to use instead",
		);
		expect(source.requests).toHaveLength(0);
	});

	it('a body cut off midway fails the upload and cancels it', async () => {
		const result = await fromUrl(`${source.url}/short/large.mp4`, {
			key: 'cut.mp4',
			options: { multipartThreshold: 8, maxRetries: 0 },
		});
		expect(result.error?.message).toMatch(
			new RegExp(`^The (connection to the )?source URL '${source.url}/short/large\\.mp4' (broke|ended) after \\d+`),
		);
		expect(result.error?.description).toMatch(/was cancelled on the service; nothing was stored/);
		expect(emulator().stats().requests.cancel).toBe(1);
		expectNothingLeft();
		expect(await stored('cut.mp4')).toBeUndefined();
	});

	it('a body that ends cleanly short of its Content-Length fails the upload, names the bytes received, and cancels it', async () => {
		const result = await fromUrl(`${source.url}/cut/large.mp4`, {
			key: 'cut-clean.mp4',
			options: { multipartThreshold: 8, maxRetries: 0 },
		});
		const half = Math.floor(large.length / 2);
		expect(result.error?.message).toMatch(
			new RegExp(
				`^The connection to the source URL '${source.url}/cut/large\\.mp4' broke after ${half} of ${large.length} bytes`,
			),
		);
		expect(result.error?.description).toMatch(/was cancelled on the service; nothing was stored/);
		expect(emulator().stats().requests.cancel).toBe(1);
		expectNothingLeft();
		expect(await stored('cut-clean.mp4')).toBeUndefined();
	});

	it('a body below the Multipart Threshold that ends cleanly short of its Content-Length stores nothing', async () => {
		const result = await fromUrl(`${source.url}/cut/small.mp4`, { key: 'cut-small.mp4', options: { maxRetries: 0 } });
		const half = Math.floor(small.length / 2);
		expect(result.error?.message).toMatch(
			new RegExp(
				`^The connection to the source URL '${source.url}/cut/small\\.mp4' broke after ${half} of ${small.length} bytes`,
			),
		);
		expect(emulator().stats().requests.upload).toBe(0);
		expect(await stored('cut-small.mp4')).toBeUndefined();
	});

	it('a body that unpacks shorter than its Content-Length (random bytes, gzip-compressed although asked not to) fails and cancels the upload', async () => {
		const announced = gzipSync(small).length;
		const result = await fromUrl(
			`${source.url}/gzip/small.mp4`,
			{ key: 'unpacked-short.mp4', partSize: 5 },
			'multipartUpload',
		);
		expect(result.error?.message).toBe(
			`The source URL '${source.url}/gzip/small.mp4' ended after ${small.length} of ${announced} bytes (its Content-Length)`,
		);
		expect(result.error?.description).toMatch(/was cancelled on the service; nothing was stored/);
		expectNothingLeft();
		expect(await stored('unpacked-short.mp4')).toBeUndefined();
	});

	it('a body longer than its Content-Length (compressed although asked not to) fails the upload and cancels it', async () => {
		const result = await fromUrl(`${source.url}/gzip/text.txt`, { key: 'long.mp4', partSize: 5 }, 'multipartUpload');
		expect(result.error?.message).toMatch(/sent more than the \d+ bytes its Content-Length announced/);
		expect(result.error?.description).toMatch(/was cancelled on the service; nothing was stored/);
		expectNothingLeft();
		expect(await stored('long.mp4')).toBeUndefined();
	});

	it('a body that stalls ends at the Timeout option', async () => {
		const result = await fromUrl(`${source.url}/stall/large.mp4`, {
			key: 'stalled.mp4',
			options: { timeout: 2, maxRetries: 0, multipartThreshold: 8 },
		});
		expect(result.error?.message).toBe(
			`The source URL '${source.url}/stall/large.mp4' sent no data for 2 s after 65536 of ${large.length} bytes`,
		);
		expectNothingLeft();
	});

	it('a 503 with Retry-After: the next attempt waits at least as long as asked', async () => {
		const result = await fromUrl(`${source.url}/busy/503/1/small.mp4`, { key: 'busy.mp4' });
		expect(result.error).toBeUndefined();
		expect(source.requests).toHaveLength(2);
		// A lower bound only (timers may fire a millisecond early); the backoff alone waits at most 0.3 s.
		expect(source.requests[1].at - source.requests[0].at).toBeGreaterThanOrEqual(990);
		expect(await stored('busy.mp4')).toBe(sha256(small));
	});

	it('a 429 asking to wait longer than 60 s is not retried, and the error says how long it asked', async () => {
		const result = await fromUrl(`${source.url}/busy/429/120/small.mp4?${SECRET_QUERY}`, { key: 'x.mp4' });
		expect(result.error?.message).toBe(
			`The source URL '${source.url}/busy/429/120/small.mp4' answered HTTP 429 (Too Many Requests)`,
		);
		expect(result.error?.description).toMatch(/asked to wait 120 s before trying again, longer than the 60 s/);
		expect(source.requests).toHaveLength(1);
	});

	it('a source announcing more than 10,000 parts is refused and its response closed', async () => {
		const announced = 10_001 * 5 * MIB;
		const result = await fromUrl(
			`${source.url}/huge/${announced}/small.mp4`,
			{ key: 'huge.mp4', partSize: 5 },
			'multipartUpload',
		);
		expect(result.error?.message).toBe(
			'The file needs 10001 parts at a Part Size of 5 MiB; the service allows at most 10000',
		);
		expect(await closedByClient(source.requests[0])).toBe(true);
		expect(emulator().stats().requests.start).toBe(0);
	});

	// Node.js 20 holds at most 4 GiB in one buffer; later versions would allocate the 4 GiB part.
	(constants.MAX_LENGTH <= 4096 * MIB ? it : it.skip)(
		'a Part Size this Node.js cannot hold is refused and the response of the source closed',
		async () => {
			const result = await fromUrl(
				`${source.url}/huge/${5 * 1024 * MIB}/small.mp4`,
				{ key: 'huge.mp4', partSize: 4096 },
				'multipartUpload',
			);
			expect(result.error?.message).toMatch(/Part Size 4096 MiB is larger than one buffer/);
			expect(await closedByClient(source.requests[0])).toBe(true);
			expect(emulator().stats().requests.start).toBe(0);
		},
	);

	(constants.MAX_LENGTH <= 4096 * MIB ? it : it.skip)(
		'a file below a Multipart Threshold too large for one buffer of this Node.js fails and the response of the source is closed',
		async () => {
			const result = await fromUrl(`${source.url}/huge/${4200 * MIB}/small.mp4`, {
				key: 'huge.mp4',
				options: { multipartThreshold: 5000 },
			});
			expect(result.error).toBeDefined();
			expect(await closedByClient(source.requests[0])).toBe(true);
			expect(emulator().stats().requests.upload).toBe(0);
		},
	);

	it('stopping the execution while the source stalls closes the connection to the source', async () => {
		const run = runFileStorage(
			emulator(),
			{
				resource: 'file',
				operation: 'upload',
				source: 'url',
				sourceUrl: `${source.url}/stall/large.mp4`,
				key: 'stopped.mp4',
				options: { multipartThreshold: 8 },
			},
			{ timeoutMs: 1500 },
		);
		// The harness stops the execution at timeoutMs, as the editor's Stop button does.
		await expect(run).rejects.toThrow(/did not finish within 1500 ms/);
		expect(await closedByClient(source.requests[0])).toBe(true);
	});

	it('Continue on error: the failing item becomes an error item, paired with its input', async () => {
		const result = await fromUrl(`${source.url}/status/404?${SECRET_QUERY}`, { key: 'x.mp4' }, 'upload', true);
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json.error).toMatch(/answered HTTP 404/);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
		expect(JSON.stringify(result.items)).not.toContain('query-secret');
	});
});

describe('a Source URL whose answer is not the whole file', () => {
	// Answers every GET with the first 100 bytes of a 1000-byte file as a 206 Partial Content.
	const partial = usePartialContentServer();

	it('an upload from a Source URL is never a part of the file: a 206 answer fails and stores nothing', async () => {
		const result = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'upload',
			source: 'url',
			sourceUrl: `${partial()}partial/part.bin`,
			key: 'partial/uploaded.bin',
		});
		expect(result.error?.message).toMatch(/answered HTTP 206 \(Partial Content/);
		expect(await emulator().readObject(BUCKET.bucketName, BUCKET.region, 'partial/uploaded.bin')).toBeUndefined();
	});
});
