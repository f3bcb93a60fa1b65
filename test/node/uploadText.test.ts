/**
 * File → Upload with Source Text: a text typed in the node (or the input item's JSON) stored as a
 * file, through the same upload path (threshold, parts) as a binary field.
 */
import type { INodeParameters, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { FileStorage } from '../../nodes/FileStorage/FileStorage.node';
import { BUCKET, MIB, runFileStorage, useEmulator } from './support';

const emulator = useEmulator();
const read = (key: string) => emulator().readObject(BUCKET.bucketName, BUCKET.region, key);

/** File → Upload with Source Text and these parameters. */
const uploadText = async (parameters: INodeParameters, extra?: Parameters<typeof runFileStorage>[2]) =>
	await runFileStorage(emulator(), { resource: 'file', operation: 'upload', source: 'text', ...parameters }, extra);

beforeEach(() => emulator().resetStats());

describe('File → Upload, Source Text', () => {
	it('stores the text as UTF-8 under Folder + File Name, as text/plain by default', async () => {
		const text = 'Grüße, 世界 + a&b\nline 2';
		const result = await uploadText({
			text,
			textFileName: 'notes.txt',
			folder: { __rl: true, mode: 'path', value: 'texts/' },
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ key: 'texts/notes.txt', source: 'text' });
		const stored = await read('texts/notes.txt');
		expect(stored?.body.toString('utf8')).toBe(text);
		expect(stored?.contentType).toBe('text/plain');
	});

	it('Path in Folder names the file when set; MIME Type is stored', async () => {
		const result = await uploadText({
			text: 'a,b\n1,2\n',
			textMimeType: 'text/csv',
			key: 'data/table.csv',
		});
		expect(result.error).toBeUndefined();
		expect((await read('data/table.csv'))?.contentType).toBe('text/csv');
	});

	it("Upload Item JSON stores the input item's JSON as application/json", async () => {
		const json = { id: 7, name: 'Zoë', tags: ['a', 'b'] };
		const result = await uploadText({ textItemJson: true, key: 'items/7.json' }, { items: [{ json }] });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ source: 'itemJson' });
		const stored = await read('items/7.json');
		expect(JSON.parse(stored!.body.toString('utf8'))).toEqual(json);
		expect(stored?.contentType).toBe('application/json');
	});

	it('a text above the Multipart Threshold goes in parts, like any source', async () => {
		const text = 'x'.repeat(6 * MIB + 10);
		const result = await uploadText({
			text,
			key: 'big.txt',
			options: { multipartThreshold: 5, partSize: 5 },
		});
		expect(result.error).toBeUndefined();
		expect(emulator().stats().requests.uploadPart).toBe(2);
		expect((await read('big.txt'))?.body.length).toBe(text.length);
	});

	it('an empty text is an error naming the field, and nothing is sent', async () => {
		const result = await uploadText({
			text: '',
			key: 'empty.txt',
		});
		expect(result.error?.message).toBe("The parameter 'Text' is empty");
		expect(emulator().stats().requests.upload).toBe(0);
	});

	it('without Path in Folder or File Name the error names Path in Folder', async () => {
		const result = await uploadText({
			text: 'a',
		});
		expect(result.error?.message).toMatch(/'Path in Folder' is empty and the text has no name/);
	});
});

describe('Source Text in the panel', () => {
	const { properties } = new FileStorage().description;
	const sourceOf = (operation: string) =>
		properties.find(
			(p: INodeProperties) => p.name === 'source' && p.displayOptions?.show?.operation?.[0] === operation,
		)!;

	it('Upload offers Text; Binary Field stays the default, so saved workflows are unchanged', () => {
		const source = sourceOf('upload');
		expect(source.default).toBe('binary');
		expect((source.options as INodePropertyOptions[]).map((o) => o.value)).toContain('text');
	});

	it('Multipart Upload does not offer Text', () => {
		expect((sourceOf('multipartUpload').options as INodePropertyOptions[]).map((o) => o.value)).not.toContain('text');
	});
});

describe('Source Text: an expression that gives no text', () => {
	it('an object is refused naming Text, never stored as "[object Object]"', async () => {
		const result = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'upload', source: 'text', text: '={{ $json.body }}', textFileName: 'obj.txt' },
			{ items: [{ json: { body: { a: 1 } } }] },
		);
		expect(result.error?.message).toMatch(/parameter 'Text'/);
		expect(await emulator().readObject(BUCKET.bucketName, BUCKET.region, 'obj.txt')).toBeUndefined();
	});
});
