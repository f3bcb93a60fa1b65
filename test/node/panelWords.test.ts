/**
 * What the panel says and what the node then does agree: the expression Get Browser Upload URL
 * suggests reads a Webhook's item; Source Text has one name for its file and its errors name the
 * field the user filled; Folder → Delete, Copy and Move say what a run changes; Copy and Move's
 * Destination Path reads as what it means next to a Destination Folder; an empty folder picker
 * names the top of the bucket, or asks for a folder where a run refuses an empty one; a Base URL
 * error keeps its sentences apart. Panels are judged with n8n-workflow's own display rules, runs
 * through n8n-core against the emulator.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INode, INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { FileStorage } from '../../nodes/FileStorage/FileStorage.node';
import { BUCKET, credentialsFor, fileItem, runFileStorage, useEmulator } from './support';

const emulator = useEmulator();
const description = new FileStorage().description;
const node = { typeVersion: 3, parameters: {} } as unknown as INode;

/** The fields the panel shows for these parameters and the defaults of the rest (n8n's own rules). */
function shown(parameters: INodeParameters): INodeProperties[] {
	const { properties } = description;
	const values = NodeHelpers.getNodeParameters(
		properties,
		{ resource: 'file', ...parameters },
		true,
		false,
		node,
		description,
	);
	return properties.filter((field) => NodeHelpers.displayParameter(values ?? {}, field, node, description));
}
const shownNamed = (parameters: INodeParameters, name: string) => shown(parameters).filter((f) => f.name === name);
const expressionIn = (text: unknown) => /\{\{.*?\}\}/.exec(String(text))?.[0];

describe("Get Browser Upload URL: the expressions the panel suggests read a Webhook's item", () => {
	const keyField = description.properties.find((field) => field.name === 'browserKey')!;
	/** An item as n8n's Webhook node makes it from the browser SDK's JSON POST. */
	const webhookItem = (params: object) => ({
		json: { headers: {}, params: {}, query: {}, body: { type: 'upload', params } },
	});
	const sign = async (params: object) =>
		await runFileStorage(
			emulator(),
			{ operation: 'signedOperationUrl', requestType: 'upload', browserKey: `=${expressionIn(keyField.hint)}` },
			{ items: [webhookItem(params)], continueOnFail: true },
		);

	it("the Key hint's expression gives the key the browser posted", async () => {
		const result = await sign({ key: 'photo.jpg' });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.key).toBe('photo.jpg');
	});

	it('"Key is empty" suggests the same expression as the hint', async () => {
		const result = await sign({});
		expect(result.items[0].json.error).toBe("The parameter 'Key' is empty");
		expect(expressionIn(result.items[0].json.description)).toBe(expressionIn(keyField.hint));
	});

	it('Request Type suggests where a Webhook puts the type', () => {
		const type = description.properties.find((field) => field.name === 'requestType')!;
		expect(type.hint).toContain('{{ $json.body.type }}');
	});
});

describe('Source Text: one name for the file, errors in the words of the field filled', () => {
	const text = { operation: 'upload', source: 'text' };
	const upload = async (parameters: INodeParameters) =>
		await runFileStorage(emulator(), { ...text, text: 'hello', ...parameters });

	it('a new panel names the file in one place, Path in Folder: File Name is not offered', () => {
		expect(shownNamed(text, 'textFileName')).toHaveLength(0);
		expect(shownNamed(text, 'key')).toHaveLength(1);
		// Not with an expression in Path in Folder either: nothing else can name the file.
		expect(shownNamed({ ...text, key: '={{ $json.name }}' }, 'textFileName')).toHaveLength(0);
	});

	it('a saved File Name stays in the panel (it still names the file), saying to move it into Path in Folder', () => {
		const [fileName] = shownNamed({ ...text, textFileName: 'a.txt' }, 'textFileName');
		expect(fileName.hint).toMatch(/^From an earlier release/);
		expect(fileName.hint).toMatch(/Path in Folder/);
		expect(shownNamed({ ...text, textFileName: '={{ $json.name }}' }, 'textFileName')).toHaveLength(1);
		// Typing a path in Path in Folder takes its place.
		expect(shownNamed({ ...text, key: 'notes/hello.txt', textFileName: 'a.txt' }, 'textFileName')).toHaveLength(0);
		// An expression may give no name at run time: the saved File Name then stands in, so it stays.
		expect(shownNamed({ ...text, key: '={{ $json.name }}', textFileName: 'a.txt' }, 'textFileName')).toHaveLength(1);
	});

	it('a saved File Name beside a typed Path in Folder changed nothing, and nothing changes', async () => {
		const result = await upload({ key: 'both/path.txt', textFileName: 'both/name.txt' });
		expect(result.items[0].json.key).toBe('both/path.txt');
		const fallback = await upload({ key: '={{ $json.none ?? "" }}', textFileName: 'fallback.txt' });
		expect(fallback.items[0].json.key).toBe('fallback.txt');
	});

	it('Refuse Existing File names File Name when File Name named the file', async () => {
		expect((await upload({ textFileName: 'taken.txt' })).error).toBeUndefined();
		const refused = await upload({ textFileName: 'taken.txt', options: { refuseExisting: true } });
		expect(refused.error?.message).toBe(`The file 'taken.txt' already exists in bucket 'my-bucket' (region us-east-1)`);
		expect(refused.error?.description).toMatch(/Choose another File Name/);
		const typed = await upload({ key: 'taken.txt', options: { refuseExisting: true } });
		expect(typed.error?.description).toMatch(/Choose another Path in Folder/);
	});

	it("a Path in Folder ending in '/' does not speak of an input file a text does not have", async () => {
		const result = await upload({ key: 'notes/' });
		expect(result.error?.message).toBe(
			"The key 'notes/' ends in '/': it names a folder, not a file (parameter 'Path in Folder')",
		);
		expect(result.error?.description).not.toMatch(/input file/);
	});

	it("a File Name ending in '/' is named as File Name", async () => {
		const result = await upload({ textFileName: 'notes/' });
		expect(result.error?.message).toMatch(/\(parameter 'File Name'\)$/);
	});

	it("a binary's Upload still offers its input file's name", async () => {
		const result = await runFileStorage(
			emulator(),
			{ operation: 'upload', key: 'reports/' },
			{ items: [fileItem(Buffer.from('x'), 'q1.txt', 'text/plain')] },
		);
		expect(result.error?.description).toMatch(/leave Path in Folder empty to use the input file's name/);
	});
});

describe('Folder → Delete says in the panel what a run will delete', () => {
	const notices = (parameters: INodeParameters) =>
		shown({ resource: 'folder', operation: 'delete', ...parameters })
			.filter((field) => field.type === 'notice')
			.map((field) => field.displayName);

	it('by default (Dry Run off, Include Subfolders on): every file, sub-folders too, and how to look first', () => {
		expect(notices({})).toEqual([expect.stringMatching(/deletes every file under Folder, in all its sub-folders/)]);
		expect(notices({})[0]).toMatch(/Turn on Dry Run/);
	});

	it('with Include Subfolders off: the folder’s own files only', () => {
		expect(notices({ includeSubfolders: false })).toEqual([expect.stringMatching(/not its sub-folders/)]);
	});

	it('with Dry Run on: nothing is deleted', () => {
		expect(notices({ dryRun: true })).toEqual([expect.stringMatching(/deletes nothing/)]);
	});
});

describe('Copy and Move: Destination Path reads as what it means', () => {
	const destination = (operation: string, folder: string) =>
		shownNamed({ operation, destinationFolder: { __rl: true, mode: 'list', value: folder } }, 'destinationKey');

	it.each(['copy', 'move'])('%s: a path in the bucket without a Destination Folder', (operation) => {
		const [field] = destination(operation, '');
		expect(destination(operation, '')).toHaveLength(1);
		expect(field.placeholder).toBe('e.g. done/report.pdf or done/');
	});

	it.each(['copy', 'move'])('%s: a name inside a picked (or expression) Destination Folder', (operation) => {
		for (const folder of ['archive/', '={{ $json.folder }}']) {
			const fields = destination(operation, folder);
			expect(fields).toHaveLength(1);
			expect(fields[0].placeholder).not.toMatch(/\//);
			expect(fields[0].hint).toMatch(/inside Destination Folder/);
		}
	});

	it("the panel says what the output's checked means", () => {
		const notices = shown({ operation: 'copy' }).filter((field) => field.type === 'notice');
		expect(notices.map((field) => field.displayName).join(' ')).toMatch(/checked lists what was: "size" always/);
	});
});

describe('an empty folder picker names what it means', () => {
	it.each<[string, INodeParameters, string]>([
		['Upload', { operation: 'upload' }, 'folder'],
		['Folder → Delete', { resource: 'folder', operation: 'delete' }, 'folder'],
		['Copy', { operation: 'copy' }, 'destinationFolder'],
	])("%s: '/ (Top of the Bucket)', the picker's first entry", (_, parameters, name) => {
		const [picker] = shownNamed(parameters, name);
		const list = picker.modes?.find((mode) => mode.name === 'list');
		expect(list?.placeholder).toBe('/ (Top of the Bucket)');
	});
});

describe('Folder → Copy and Move: an empty Destination Folder reads as the choice it asks for', () => {
	it.each(['copy', 'move'])('%s: the empty picker asks for a folder, / for the top', (operation) => {
		const [picker] = shownNamed({ resource: 'folder', operation }, 'destinationFolder');
		const list = picker.modes?.find((mode) => mode.name === 'list');
		const path = picker.modes?.find((mode) => mode.name === 'path');
		// Empty is refused by a run ("The parameter 'Destination Folder' is empty"): the panel says so.
		expect(list?.placeholder).toMatch(/^Pick a folder.*\/ \(Top of the Bucket\)/);
		expect(path?.hint).not.toMatch(/Empty: the top/);
		expect(path?.hint).toMatch(/\/ for the top of the bucket/);
	});

	it("Folder → Delete's typed path says an empty Folder needs Allow Whole Bucket", () => {
		const [picker] = shownNamed({ resource: 'folder', operation: 'delete' }, 'folder');
		expect(picker.modes?.find((mode) => mode.name === 'path')?.hint).toMatch(/Allow Whole Bucket/);
	});
});

describe('Folder → Copy and Move say in the panel what a run will change', () => {
	const notices = (parameters: INodeParameters) =>
		shown({ resource: 'folder', ...parameters })
			.filter((field) => field.type === 'notice')
			.map((field) => field.displayName)
			.join(' ');

	it('Move: every file, each copy checked before its source is deleted, and how to look first', () => {
		const text = notices({ operation: 'move' });
		expect(text).toMatch(/A run moves every file under Folder, in all its sub-folders too/);
		expect(text).toMatch(/deleted from Folder only after its copy is checked/);
		expect(text).toMatch(/Turn on Dry Run/);
	});

	it('Copy with Include Subfolders off: the folder’s own files only, and checked explained', () => {
		const text = notices({ operation: 'copy', includeSubfolders: false });
		expect(text).toMatch(/A run copies every file directly in Folder \(not its sub-folders\)/);
		expect(text).toMatch(/checked/);
	});

	it.each(['copy', 'move'])('%s with Dry Run on: nothing is changed', (operation) => {
		expect(notices({ operation, dryRun: true })).toMatch(/^Dry Run: a run lists the files .* and changes nothing\.$/);
	});
});

describe('a Base URL that is not the API: its error keeps its sentences apart', () => {
	let web: Server;
	let origin = '';
	beforeAll(async () => {
		web = createServer((req, res) => {
			req.resume();
			res.writeHead(404, { 'Content-Type': 'text/html' }).end('<h1>Nothing here</h1>');
		});
		await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
		origin = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
	});
	afterAll(async () => await new Promise((resolve) => web.close(resolve)));

	it('the fix ends its sentence before the server’s own words', async () => {
		const result = await runFileStorage(
			emulator(),
			{ resource: 'bucket', operation: 'listContents' },
			{ credentials: credentialsFor(emulator(), { baseUrl: origin }) },
		);
		expect(result.error?.description).toMatch(
			/\(e\.g\. https:\/\/api\.apexxcloud\.com\)\. The server said: "Nothing here"\.$/,
		);
	});
});

describe('On Error: Continue (using error output)', () => {
	it.each([2, 3])(
		'version %s: a failed item goes to the error output, in its words; a good one to the first',
		async (typeVersion) => {
			const result = await runFileStorage(
				emulator(),
				{ operation: 'signedOperationUrl', requestType: 'upload', browserKey: '={{ $json.key }}' },
				{ typeVersion, onError: 'continueErrorOutput', items: [{ json: { key: 'a.jpg' } }, { json: { key: '' } }] },
			);
			expect(result.error).toBeUndefined();
			expect(result.outputs[0].map((item) => item.json.key)).toEqual(['a.jpg']);
			expect(result.outputs[1].map((item) => item.json.error)).toEqual(["The parameter 'Key' is empty"]);
			expect((result.outputs[1][0] as { error?: { description?: string } }).error?.description).toMatch(/Set Key/);
			expect(result.outputs[1][0].pairedItem).toEqual({ item: 1 });
		},
	);
});

it('the bucket the tests use', () => expect(BUCKET.bucketName).toBe('my-bucket'));
