/**
 * n8n 2.x's combined binary mode (workflow setting `binaryMode: 'combined'`): n8n-core moves every
 * binary of a node's output to `item.json._files[<field>]`, so the input items arrive without
 * `item.binary` and the node's own output binaries are moved there after it ran. The harness
 * converts both with n8n-core's own code. Separate mode (the default) is checked alongside.
 */
import type { IBinaryData, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { HarnessItem, RunNodeOptions } from '../harness';
import { MIB, fileItem, randomFile, runFileStorage, sha256, useEmulator } from './support';

const emulator = useEmulator();
const combined: Partial<RunNodeOptions> = { binaryMode: 'combined' };
const byKey = (key: string) => ({ __rl: true, mode: 'key', value: key });

beforeEach(() => emulator().resetStats());

const run = async (parameters: INodeParameters, items: HarnessItem[], extra: Partial<RunNodeOptions> = {}) =>
	await runFileStorage(emulator(), parameters, { ...combined, items, ...extra });

const upload = async (parameters: INodeParameters, items: HarnessItem[], extra: Partial<RunNodeOptions> = {}) =>
	await run({ resource: 'file', operation: 'upload', ...parameters }, items, extra);

const storedSha = async (key: string) => await emulator().objectSha256('my-bucket', 'us-east-1', key);

const filesOf = (item: INodeExecutionData) => (item.json._files ?? {}) as Record<string, IBinaryData>;

describe('combined binary mode: Upload reads the file from the JSON', () => {
	it.each([
		['data (meaning _files.data)', 'data'],
		['the path _files.data', '_files.data'],
		['an expression that resolves to the binary object', '={{ $json._files.data }}'],
		['a field name with spaces, under _files', 'my file'],
	])('Input Binary Field as %s stores the bytes exactly', async (_title, field) => {
		const bytes = randomFile(3000);
		const binaryField = field === 'my file' ? 'my file' : 'data';
		const result = await upload({ key: `combined/${binaryField}.bin`, binaryPropertyName: field }, [
			fileItem(bytes, 'photo.png', 'image/png', binaryField),
		]);
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ size: bytes.length, content_type: 'image/png' });
		expect(await storedSha(`combined/${binaryField}.bin`)).toBe(sha256(bytes));
	});

	it('the input really is in combined form: no item.binary, the file under json._files', async () => {
		// Guards the tests above: without n8n-core's conversion they would prove nothing.
		const key =
			"={{ 'probe/' + Object.keys($json._files).join() + '/' + Object.keys($input.item.binary ?? {}).length }}";
		const result = await upload({ key }, [fileItem(Buffer.from('probe'))]);
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.key).toBe('probe/data/0');
	});

	it('a file the key is taken from keeps its name: Key empty uses the file name under _files', async () => {
		const result = await upload({}, [fileItem(Buffer.from('named'), 'named in json.txt', 'text/plain')]);
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.key).toBe('named in json.txt');
	});

	it('an inline base64 binary (as a Code node makes it) that n8n stored under _files', async () => {
		const bytes = randomFile(4096);
		const result = await upload({ key: 'combined/inline.bin' }, [
			{
				json: {},
				binary: { data: { data: bytes, fileName: 'x.bin', mimeType: 'application/x-test', base64Inline: true } },
			},
		]);
		expect(result.error).toBeUndefined();
		expect(await storedSha('combined/inline.bin')).toBe(sha256(bytes));
	});

	it('Multipart Upload reads the file from _files in parts, byte-identical', async () => {
		const bytes = randomFile(11 * MIB + 5);
		const result = await run({ resource: 'file', operation: 'multipartUpload', key: 'combined/big.bin', partSize: 5 }, [
			fileItem(bytes, 'big.bin'),
		]);
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ size: bytes.length, partCount: 3 });
		expect(await storedSha('combined/big.bin')).toBe(sha256(bytes));
	});

	it('Upload Part reads its bytes from _files', async () => {
		const started = await run(
			{ resource: 'multipartUpload', operation: 'start', key: 'combined/part.bin', totalParts: 1 },
			[{ json: {} }],
		);
		const uploadId = started.items[0].json.uploadId as string;
		const bytes = randomFile(2000);
		const part = await run(
			{
				resource: 'multipartUpload',
				operation: 'uploadPart',
				uploadId,
				key: 'combined/part.bin',
				partNumber: 1,
				totalParts: 1,
			},
			[fileItem(bytes)],
		);
		expect(part.error).toBeUndefined();
		expect(part.items[0].json).toMatchObject({ partNumber: 1, size: bytes.length });
		const completed = await run(
			{ resource: 'multipartUpload', operation: 'complete', uploadId, key: 'combined/part.bin', partsSource: 'items' },
			[{ json: part.items[0].json }],
		);
		expect(completed.error).toBeUndefined();
		expect(await storedSha('combined/part.bin')).toBe(sha256(bytes));
	});
});

describe('combined binary mode: bad input names the field and what is there', () => {
	afterEach(() => expect(emulator().stats().requests.upload).toBe(0));

	it('a missing field is named, with the files present under _files', async () => {
		const result = await upload({ binaryPropertyName: 'file' }, [
			fileItem(Buffer.from('x'), 'a.txt', 'text/plain', 'attachment'),
		]);
		expect(result.error?.message).toMatch(/no binary field 'file' \(parameter 'Input Binary Field'\)/);
		expect(result.error?.description).toMatch(/'_files\.attachment'/);
		expect(result.error?.description).toMatch(/under '_files'/);
	});

	it('an item without any file says so', async () => {
		const result = await upload({}, [{ json: { hello: 'world' } }]);
		expect(result.error?.message).toMatch(/no binary field 'data'/);
		expect(result.error?.description).toMatch(/carries no binary data at all/);
	});

	it('a path to something that is not a file is refused by name', async () => {
		const result = await upload({ binaryPropertyName: 'name' }, [fileItem(Buffer.from('x'), 'a.txt')]);
		expect(result.error?.message).toMatch(/no binary field 'name'/);
		expect(result.error?.description).toMatch(/'_files\.data'/);
	});

	it('an expression that gives something other than a file says what it gave', async () => {
		const result = await upload({ binaryPropertyName: '={{ $json._files }}' }, [fileItem(Buffer.from('x'))]);
		expect(result.error?.message).toMatch(/'Input Binary Field' is neither the name of a binary field nor a file/);
		expect(result.error?.description).toMatch(/an object with the keys data, not a file/);
	});
});

describe('combined binary mode: Download puts the file under _files', () => {
	const original = randomFile(2 * MIB + 11);
	beforeAll(async () => {
		// Stored in separate mode, so these tests do not depend on Upload's reading.
		const stored = await upload({ key: 'combined/dl.bin' }, [fileItem(original, 'dl.bin')], { binaryMode: undefined });
		expect(stored.error).toBeUndefined();
	});

	it('version 2: the file under _files.<field>, the incoming files kept, byte-identical', async () => {
		const result = await run(
			{ resource: 'file', operation: 'download', fileKey: byKey('combined/dl.bin'), binaryPropertyName: 'copy' },
			[{ ...fileItem(Buffer.from('already here'), 'other.txt', 'text/plain', 'other'), json: { order: 7 } }],
			{ typeVersion: 2 },
		);
		expect(result.error).toBeUndefined();
		const [item] = result.items;
		expect(item.binary).toBeUndefined();
		expect(item.json.order).toBe(7);
		expect(Object.keys(filesOf(item)).sort()).toEqual(['copy', 'other']);
		expect(filesOf(item).copy).toMatchObject({ fileName: 'dl.bin' });
		expect(await result.binarySha256(item, 'copy')).toBe(sha256(original));
		expect((await result.readBinary(item, 'other')).toString()).toBe('already here');
	});

	it('version 1: the file under _files.data', async () => {
		const result = await run(
			{ resource: 'file', operation: 'download', fileKey: byKey('combined/dl.bin'), binaryPropertyName: 'data' },
			[{ json: {} }],
			{ typeVersion: 1 },
		);
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ key: 'combined/dl.bin', size: original.length });
		expect(await result.binarySha256(result.items[0], 'data')).toBe(sha256(original));
		expect(result.items[0].binary).toBeUndefined();
	});

	it('upload of the downloaded file (its _files entry) round-trips the bytes', async () => {
		const downloaded = await run(
			{ resource: 'file', operation: 'download', fileKey: byKey('combined/dl.bin'), binaryPropertyName: 'copy' },
			[{ json: {} }],
			{ typeVersion: 2 },
		);
		const again = await upload({ key: 'combined/dl-again.bin', binaryPropertyName: '_files.copy' }, [
			{ json: downloaded.items[0].json },
		]);
		expect(again.error).toBeUndefined();
		expect(await storedSha('combined/dl-again.bin')).toBe(sha256(original));
	});
});

describe('separate binary mode (the default) is unchanged', () => {
	const separate: Partial<RunNodeOptions> = { binaryMode: 'separate' };

	it('a field name reads item.binary; a file under json._files is not looked for', async () => {
		const bytes = randomFile(500);
		const ok = await upload({ key: 'separate/a.bin' }, [fileItem(bytes)], separate);
		expect(ok.error).toBeUndefined();
		expect(await storedSha('separate/a.bin')).toBe(sha256(bytes));
		const moved = await upload(
			{ key: 'separate/b.bin' },
			[{ json: { _files: { data: { mimeType: 'text/plain', data: 'eA==' } } } }],
			separate,
		);
		expect(moved.error?.message).toMatch(
			/^The input item has no binary field 'data' \(parameter 'Input Binary Field'\)$/,
		);
		expect(moved.error?.description).toMatch(/carries no binary data at all\. Put a node/);
	});

	it('an expression that resolves to the binary object ({{ $binary.data }}) is taken as the file', async () => {
		const bytes = randomFile(700);
		const result = await upload(
			{ key: 'separate/expr.bin', binaryPropertyName: '={{ $binary.data }}' },
			[fileItem(bytes)],
			separate,
		);
		expect(result.error).toBeUndefined();
		expect(await storedSha('separate/expr.bin')).toBe(sha256(bytes));
	});

	it('Download output stays on item.binary', async () => {
		const result = await run(
			{ resource: 'file', operation: 'download', fileKey: byKey('combined/dl.bin'), binaryPropertyName: 'copy' },
			[{ json: {} }],
			{ ...separate, typeVersion: 2 },
		);
		expect(result.error).toBeUndefined();
		expect(result.items[0].binary?.copy).toBeDefined();
		expect(result.items[0].json._files).toBeUndefined();
	});
});
