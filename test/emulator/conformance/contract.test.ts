/** The conformance client checks every answer against docs/openapi/file-storage-api.yaml. */
import { AS_STRING } from '../faults';
import { contract, ContractViolation } from './contract';
import { startEmulator, type Running } from './setup';

let r: Running;
beforeAll(async () => {
	r = await startEmulator({ minPartSize: 1 });
});
afterAll(() => r.emu.stop());
afterEach(() => r.emu.setFaults([]));

const violation = (p: Promise<unknown>) =>
	p.then(
		() => 'kept the contract',
		(err: Error) => (err instanceof ContractViolation ? err.message : `other error: ${err.message}`),
	);

test('answers the emulator gives are checked, and answers made wrong with rewrite are caught', async () => {
	const key = 'contract/wrong.bin';
	const uploadId = (await r.api.start(key)).json.data.uploadId;
	expect((await r.api.uploadPart(uploadId, key, 1, Buffer.from('ok'))).status).toBe(200);

	r.emu.setFaults([{ operation: 'uploadPart', rewrite: { partNumber: AS_STRING } }]);
	expect(await violation(r.api.uploadPart(uploadId, key, 2, Buffer.from('x')))).toMatch(
		/uploadPart 200: \/data\/partNumber must be integer/,
	);
	r.emu.setFaults([{ operation: 'uploadPart', rewrite: { ETag: '' } }]);
	expect(await violation(r.api.uploadPart(uploadId, key, 2, Buffer.from('x')))).toMatch(
		/\/data\/ETag must NOT have fewer/,
	);
	r.emu.setFaults([{ operation: 'start', rewrite: { uploadId: '' } }]);
	expect(await violation(r.api.start('contract/other.bin'))).toMatch(/start 200: \/data\/uploadId/);
	r.emu.setFaults([{ operation: 'signedUrl', rewrite: { url: 'ftp://x' } }]);
	expect((await r.api.upload(key, Buffer.from('x'))).status).toBe(200);
	expect(await violation(r.api.signedUrl(key))).toMatch(/signedUrl 200: \/data\/url must match pattern/);
	r.emu.setFaults([{ operation: 'list', rewrite: { pagination: null } }]);
	expect(await violation(r.api.list())).toMatch(/list 200: \/data must have required property 'pagination'/);
	// The SDK's paths and Purge are held to the same document.
	expect(await violation(r.api.inFamily('sdk').list())).toMatch(/listSdk 200: \/data must have required property/);
	r.emu.setFaults([{ operation: 'uploadPart', rewrite: { ETag: '' } }]);
	expect(await violation(r.api.inFamily('sdk').uploadPart(uploadId, key, 2, Buffer.from('x')))).toMatch(
		/uploadPartSdk 200: \/data\/ETag must NOT have fewer/,
	);
	r.emu.setFaults([{ operation: 'purge', rewrite: { urls: 'one' } }]);
	expect(await violation(r.api.purge(key))).toMatch(/purge 200: \/data\/urls must be array/);
	// Without the rewrite the same calls keep the contract.
	r.emu.setFaults([]);
	expect(await violation(r.api.signedUrl(key))).toBe('kept the contract');
	expect(await violation(r.api.list())).toBe('kept the contract');
});

test('a status or content type the contract does not list is a violation; unknown routes are not judged', () => {
	const answer = (status: number, body: unknown, contentType = 'application/json') => ({
		method: 'GET',
		target: '/api/v1/files/list?bucket_name=b&region=r',
		status,
		headers: { 'content-type': contentType },
		body: Buffer.from(JSON.stringify(body)),
	});
	expect(contract().problems(answer(418, { error: 'teapot' }))).toEqual([
		'list 418: status 418 is not in the contract for this operation',
	]);
	expect(contract().problems(answer(500, { error: 'x' }, 'text/html'))).toEqual([
		'list 500: Content-Type "text/html" is not in the contract',
	]);
	expect(contract().problems(answer(400, { error: 'Validation failed' }))).toEqual([
		"list 400: (body) must have required property 'details'",
	]);
	expect(contract().problems(answer(404, { nothing: true }))).not.toEqual([]);
	expect(contract().problems({ ...answer(404, {}), target: '/nowhere' })).toEqual([]);
});
