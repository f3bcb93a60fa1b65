/**
 * The two path families (the published reference's and the official SDK's spelling of list, part
 * upload and cancel) and Purge. Every answer below that is not sent unchecked is validated against
 * the wire contract by the client.
 */
import { parseArgs } from '../cli';
import { start } from '../index';
import type { PathFamilies } from '../types';
import { type ApiClient } from './client';
import { expectOk, startEmulator, startUpload, type Running } from './setup';

const MIB = 1024 * 1024;

function useEmulator(paths: PathFamilies | undefined): () => Running {
	let r: Running | undefined;
	beforeAll(async () => {
		r = await startEmulator({ minPartSize: 1, ...(paths ? { paths } : {}) });
	});
	afterAll(() => r?.emu.stop());
	return () => r as Running;
}

/** Start, one part, complete, and a second upload cancelled: all in the client's family. */
async function multipartRoundTrip(api: ApiClient, key: string): Promise<void> {
	const uploadId = await startUpload(api, key);
	const part = await api.uploadPart(uploadId, key, 1, Buffer.from('one part'));
	expectOk(part);
	expectOk(await api.complete(uploadId, key, [{ PartNumber: 1, ETag: part.json.data.ETag }]));
	const listed = await api.list({ prefix: key.slice(0, key.indexOf('/') + 1) });
	expectOk(listed);
	expect(listed.json.data.contents.children.map((c: { path: string }) => c.path)).toContain(key);
	const other = await startUpload(api, `${key}.cancelled`);
	const cancelled = await api.cancel(other, `${key}.cancelled`);
	expectOk(cancelled);
	expect(cancelled.json.data.message).toBe('Multipart upload cancelled successfully');
	// Gone after cancel, in this family too: the API's own 404.
	expect((await api.cancel(other, `${key}.cancelled`)).status).toBe(404);
}

describe('by default both families are answered', () => {
	const r = useEmulator(undefined);
	test.each(['reference', 'sdk'] as const)('the %s family: list, part upload, complete, cancel', async (family) => {
		await multipartRoundTrip(r().api.inFamily(family), `both/${family}.bin`);
		expect(r().emu.listOpenUploads()).toEqual([]);
	});
});

describe.each(['reference', 'sdk'] as const)('an emulator answering only the %s family', (family) => {
	const r = useEmulator(family);
	const other = family === 'reference' ? 'sdk' : 'reference';

	test('answers its own family in full', async () => {
		await multipartRoundTrip(r().api.inFamily(family), `only/${family}.bin`);
	});

	test("answers the other family's three paths like a web framework without the route: HTML, not the API's error", async () => {
		const api = r().api.inFamily(other).unchecked();
		const uploadId = await startUpload(r().api, `only/${family}-other.bin`);
		const before = r().emu.stats();
		const answers = [
			await api.list(),
			await api.uploadPart(uploadId, `only/${family}-other.bin`, 1, Buffer.alloc(MIB, 7)),
			await api.cancel(uploadId, `only/${family}-other.bin`),
		];
		const spelled =
			other === 'sdk'
				? [
						'GET /api/v1/files/contents',
						`POST /api/v1/files/multipart/${uploadId}`,
						`DELETE /api/v1/files/multipart/${uploadId}`,
					]
				: [
						'GET /api/v1/files/list',
						`POST /api/v1/files/multipart/${uploadId}/upload`,
						`POST /api/v1/files/multipart/${uploadId}/cancel`,
					];
		answers.forEach((answer, i) => {
			expect(answer.status).toBe(404);
			expect(answer.headers['content-type']).toMatch(/^text\/html/);
			expect(answer.json).toBeUndefined();
			expect(answer.body.toString('utf8')).toContain(`<pre>Cannot ${spelled[i]}</pre>`);
		});
		// Nothing reached an operation: no request counted, the upload untouched and still open.
		const after = r().emu.stats();
		expect(after.requests).toEqual(before.requests);
		expect(after.responses['404'] - (before.responses['404'] ?? 0)).toBe(3);
		expect(r().emu.listOpenUploads()).toEqual([expect.objectContaining({ uploadId, parts: [] })]);
		// An unknown path outside both families keeps the API's JSON 404.
		const unknown = await api.send('GET', '/api/v1/files/nowhere');
		expect(unknown.json).toEqual({ error: 'Resource not found', message: 'No route for GET /api/v1/files/nowhere' });
	});

	test('Purge answers in this family too', async () => {
		expectOk(await r().api.upload('purge/here.txt', Buffer.from('x')));
		const purged = await r().api.purge('purge/here.txt');
		expectOk(purged);
		expect(purged.json.data).toEqual({
			message: 'Cache purged successfully',
			urls: [`${r().emu.cdnUrl}/f/${r().emu.accessId}/purge/here.txt`],
		});
	});
});

describe('Purge', () => {
	const r = useEmulator(undefined);

	test('answers a message and the purged URL (the location), counted as a purge request', async () => {
		const key = 'purge/r\u00e9sum\u00e9 final.pdf';
		expectOk(await r().api.upload(key, Buffer.from('pdf')));
		const location = (await r().api.signedUrl(key)).json.data.url.split('?')[0];
		const before = r().emu.stats().requests.purge;
		const purged = await r().api.purge(key);
		expectOk(purged);
		expect(purged.json.data.urls).toEqual([location]);
		expect(r().emu.stats().requests.purge).toBe(before + 1);
	});

	test('a key that is not stored (any more) is purged too: a deleted file may still be cached', async () => {
		expectOk(await r().api.upload('purge/deleted.txt', Buffer.from('x')));
		expectOk(await r().api.delete('purge/deleted.txt'));
		expectOk(await r().api.purge('purge/deleted.txt'));
	});

	test('validation, unknown bucket, authentication and faults as every other operation', async () => {
		const missingKey = await r().api.send('POST', '/api/v1/files/purge?bucket_name=my-bucket&region=us-east-1');
		expect(missingKey.status).toBe(400);
		expect(missingKey.json.details).toEqual([expect.objectContaining({ field: 'key' })]);
		const other = await r().api.send('POST', '/api/v1/files/purge?bucket_name=nope&region=us-east-1&key=a');
		expect(other.status).toBe(404);
		const unsigned = await r().api.send(
			'POST',
			'/api/v1/files/purge?bucket_name=my-bucket&region=us-east-1&key=a',
			undefined,
			{},
			{ signature: '0'.repeat(64) },
		);
		expect(unsigned.status).toBe(401);
		r().emu.setFaults([{ operation: 'purge', status: 503, times: 1 }]);
		expect((await r().api.purge('a')).status).toBe(503);
		expectOk(await r().api.purge('a'));
		r().emu.setFaults([]);
	});
});

describe('the paths setting', () => {
	test('--paths on the command line, checked', () => {
		expect(parseArgs(['--paths', 'sdk'])).toEqual({ paths: 'sdk' });
		expect(parseArgs(['--paths=reference'])).toEqual({ paths: 'reference' });
		expect(() => parseArgs(['--paths', 'new'])).toThrow('--paths needs both, reference, sdk, got "new"');
	});

	test('start() refuses an unknown value', async () => {
		await expect(start({ port: 0, paths: 'old' as PathFamilies })).rejects.toThrow(
			'invalid paths: old (both, reference, sdk)',
		);
	});
});
