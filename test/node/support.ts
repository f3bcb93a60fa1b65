import { createHash, randomBytes } from 'node:crypto';

import type { ICredentialDataDecryptedObject, INodeParameters } from 'n8n-workflow';

import { start, type Emulator, type EmulatorOptions } from '../emulator';
import { runNode, type HarnessItem, type RunNodeOptions } from '../harness';

export const MIB = 1024 * 1024;
export const BUCKET = { bucketName: 'my-bucket', region: 'us-east-1' };

/** Starts one fresh emulator for the test file and stops it afterwards. */
export function useEmulator(options: EmulatorOptions = {}): () => Emulator {
	let emulator: Emulator | undefined;
	beforeAll(async () => {
		emulator = await start({ port: 0, ...options });
	});
	afterAll(async () => {
		await emulator?.stop();
	});
	return () => {
		if (!emulator) throw new Error('emulator not started');
		return emulator;
	};
}

export function credentialsFor(emulator: Emulator, overrides: Partial<ICredentialDataDecryptedObject> = {}) {
	return {
		fileStorageApi: {
			accessKey: emulator.accessKey,
			secretKey: emulator.secretKey,
			baseUrl: emulator.url,
			...overrides,
		},
	};
}

export function sha256(bytes: Buffer): string {
	return createHash('sha256').update(bytes).digest('hex');
}

export function randomFile(size: number): Buffer {
	return randomBytes(size);
}

export function fileItem(
	data: Buffer,
	fileName = 'file.bin',
	mimeType = 'application/octet-stream',
	field = 'data',
): HarnessItem {
	return { json: { name: fileName }, binary: { [field]: { data, fileName, mimeType } } };
}

/** Runs the File Storage node against the emulator with the given parameters. */
export async function runFileStorage(
	emulator: Emulator,
	parameters: INodeParameters,
	extra: Partial<RunNodeOptions> = {},
) {
	return await runNode({
		credentials: credentialsFor(emulator),
		...extra,
		parameters: { ...BUCKET, ...parameters },
	});
}

/** Runs File → Download of `key` chosen by key, without retries (node version 3 unless `extra` says another). */
export async function downloadByKey(emulator: Emulator, key: string, extra: Partial<RunNodeOptions> = {}) {
	const parameters = { resource: 'file', operation: 'download', fileKey: byKey(key), options: { maxRetries: 0 } };
	return await runFileStorage(emulator, parameters, { typeVersion: 3, ...extra });
}

/** Stores `bytes` under `key` with the node's own Upload (public text by default): a test's starting file. */
export async function uploadWithNode(
	emulator: Emulator,
	key: string,
	bytes: Buffer | string,
	{ visibility = 'public', mimeType = 'text/plain' }: { visibility?: string; mimeType?: string } = {},
): Promise<void> {
	const result = await runFileStorage(
		emulator,
		{ resource: 'file', operation: 'upload', key, visibility },
		{ items: [fileItem(Buffer.from(bytes), 'upload.txt', mimeType)] },
	);
	expect(result.error).toBeUndefined();
}

/** What the emulator stores under `key` in the test bucket, as text; undefined when nothing. */
export async function storedText(emulator: Emulator, key: string): Promise<string | undefined> {
	return (await emulator.readObject(BUCKET.bucketName, BUCKET.region, key))?.body.toString();
}

/** The Last-Modified a CDN passes on for the file stored under `key` in the test bucket (HTTP date, the listed second). */
export async function storedHttpDate(emulator: Emulator, key: string): Promise<string> {
	const stored = await emulator.readObject(BUCKET.bucketName, BUCKET.region, key);
	if (!stored) throw new Error(`nothing is stored under '${key}'`);
	return new Date(stored.lastModified).toUTCString();
}

/** The test bucket as the emulator's adversary names it. */
export const HERE = { name: BUCKET.bucketName, region: BUCKET.region };

/** A file parameter chosen "by key", as the editor saves a resource locator. */
export function byKey(value: string) {
	return { __rl: true, mode: 'key', value };
}

/** Stores a private text file under `key` as another writer (the emulator's adversary): a test's outside change. */
export async function putText(emulator: Emulator, key: string, text: string, writer: string) {
	return await emulator.adversary.put(HERE, key, Buffer.from(text), {
		visibility: 'private',
		contentType: 'text/plain',
		writer,
	});
}

/** Where the bytes `text` are now in the test bucket: at the source key, at the destination key, or nowhere. */
export async function whereIs(emulator: Emulator, text: string, source: string, destination: string) {
	const want = sha256(Buffer.from(text));
	const read = async (key: string) => await emulator.readObject(BUCKET.bucketName, BUCKET.region, key);
	const [atSource, atDestination] = [await read(source), await read(destination)];
	if (atSource && sha256(atSource.body) === want) return 'source';
	if (atDestination && sha256(atDestination.body) === want) return 'destination';
	return 'lost';
}
