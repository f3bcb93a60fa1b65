/**
 * File Path (Source of Upload and Multipart Upload, Destination of Download) was removed: n8n's
 * verification forbids community nodes to touch files. A saved workflow that still holds it must
 * open (the value stays a valid, disabled option) and fail at once, naming what to use instead,
 * before any request reaches the service.
 */
import type { INodeParameters } from 'n8n-workflow';

import { FileStorage } from '../../nodes/FileStorage/FileStorage.node';
import { fileItem, randomFile, runFileStorage, useEmulator } from './support';

const emulator = useEmulator();
const bytes = randomFile(4096);
const KEY = 'removed/file.bin';

beforeAll(async () => {
	const up = await runFileStorage(
		emulator(),
		{ resource: 'file', operation: 'upload', key: KEY },
		{ items: [fileItem(bytes)] },
	);
	expect(up.error).toBeUndefined();
	// The count below sees requests: the upload above made some.
	expect(requestsSeen()).toBeGreaterThan(0);
});
beforeEach(() => emulator().resetStats());

/** Every request the emulator saw since the last reset, API and CDN. */
function requestsSeen(): number {
	const { requests, connections } = emulator().stats();
	return Object.values(requests).reduce((sum, count) => sum + count, 0) + connections.requests;
}

const sources: Array<[string, INodeParameters]> = [
	['Upload', { operation: 'upload' }],
	['Multipart Upload', { operation: 'multipartUpload' }],
];

describe.each([1, 2, 3])('version %i: a saved workflow holding File Path', (typeVersion) => {
	it.each(sources)('%s with Source File Path fails at once, naming the alternatives', async (_, extra) => {
		const result = await runFileStorage(
			emulator(),
			{ resource: 'file', ...extra, source: 'filePath', sourceFilePath: '/tmp/video.mp4', key: 'x.bin' },
			{ typeVersion, items: [fileItem(bytes)] },
		);
		expect(result.error?.message).toBe(
			"Source 'File Path' was removed: this node no longer reads files on the n8n host",
		);
		expect(result.error?.description).toContain('Read/Write Files from Disk');
		expect(result.error?.description).toContain('Source URL');
		expect(requestsSeen()).toBe(0);
	});

	it('Download with Destination File Path fails at once, naming the alternatives', async () => {
		const result = await runFileStorage(
			emulator(),
			{
				resource: 'file',
				operation: 'download',
				fileKey: { __rl: true, mode: 'key', value: KEY },
				destination: 'filePath',
				destinationFilePath: '/tmp/out.bin',
			},
			{ typeVersion },
		);
		expect(result.error?.message).toBe(
			"Destination 'File Path' was removed: this node no longer writes files on the n8n host",
		);
		expect(result.error?.description).toContain('Read/Write Files from Disk');
		expect(result.error?.description).toContain('Get Signed URL');
		expect(requestsSeen()).toBe(0);
	});
});

describe('File Path with Continue On Fail', () => {
	it('the item fails with the same words and the run goes on', async () => {
		const result = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'upload', source: 'filePath', sourceFilePath: '/tmp/a.bin', key: 'x.bin' },
			{ continueOnFail: true, items: [fileItem(bytes)] },
		);
		expect(result.items[0].json.error).toBe(
			"Source 'File Path' was removed: this node no longer reads files on the n8n host",
		);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
		expect(requestsSeen()).toBe(0);
	});
});

describe('the editor still opens a saved workflow holding File Path', () => {
	it('filePath stays a valid option of Source and Destination, disabled so new workflows cannot pick it', () => {
		const properties = new FileStorage().description.properties;
		for (const name of ['source', 'destination']) {
			const fields = properties.filter((p) => p.name === name);
			expect(fields.length).toBeGreaterThan(0);
			for (const field of fields) {
				const option = field.options?.find((o) => 'value' in o && o.value === 'filePath');
				expect(option).toMatchObject({ name: 'File Path (Removed)', disabled: true });
			}
		}
	});
});
