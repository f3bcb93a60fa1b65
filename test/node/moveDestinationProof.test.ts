/**
 * File → Move deletes its source only on proof that the destination holds the source's bytes
 * (docs/reliability.md, "Destructive steps act on proof"): the copy is read back and hashed when
 * the CDN sends no MD5 ETag, and the destination is listed again just before the delete. Another
 * writer at the destination, through the emulator's hooks, over real HTTP and n8n-core's engine.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { HookCall } from '../emulator/history';
import { HERE, byKey, putText, runFileStorage, storedText, useEmulator } from './support';

const emulator = useEmulator();
const read = async (key: string) => await storedText(emulator(), key);
const isList = (call: HookCall, prefix: string) => call.op === 'list' && call.query.get('prefix') === prefix;

const put = async (key: string, text: string, writer: string) => await putText(emulator(), key, text, writer);

/** A source stored by another writer, then left to settle (a Move waits out a source written moments before). */
async function storeSettled(key: string, text: string) {
	await put(key, text, 'setup');
	await new Promise((resolve) => setTimeout(resolve, 5000));
}

async function move(key: string, destinationKey: string, parameters: INodeParameters = {}) {
	return await runFileStorage(emulator(), {
		resource: 'file',
		operation: 'move',
		fileKey: byKey(key),
		destinationKey,
		...parameters,
	});
}

beforeEach(() => emulator().adversary.setHooks(undefined));

describe('File → Move: the destination must still hold the source when the source is deleted', () => {
	it('a copy replaced by another writer after its check and before the source is deleted: the source is kept', async () => {
		const source = 'fm-race/report.txt';
		const destination = 'fm-race-to/report.txt';
		await storeSettled(source, 'the only copy of the report');
		let checked = false;
		let struck = false;
		emulator().adversary.setHooks({
			before: async (call) => {
				// The copy's check lists the destination; the next listing of the source is the one before its delete.
				if (isList(call, destination)) checked = true;
				if (checked && !struck && isList(call, source)) {
					struck = true;
					await put(destination, 'another writer, much longer text', 'other');
				}
				return undefined;
			},
		});
		const result = await move(source, destination);
		expect(struck).toBe(true);
		expect(await read(source)).toBe('the only copy of the report');
		expect(result.error?.message).toMatch(/not deleted/);
		expect(result.error?.description).toMatch(/Both files exist now/);
	}, 30_000);

	it('a copy replaced at the same size by another writer between its upload and its check: the source is kept', async () => {
		const source = 'fm-swap/report.txt';
		const destination = 'fm-swap-to/report.txt';
		await storeSettled(source, 'AAAA the only copy');
		let struck = false;
		emulator().adversary.setHooks({
			after: async (call) => {
				if (call.op === 'upload' && call.query.get('key') === destination && !struck) {
					struck = true;
					await put(destination, 'BBBB other writer!', 'other');
				}
			},
		});
		const result = await move(source, destination);
		expect(struck).toBe(true);
		expect(await read(source)).toBe('AAAA the only copy');
		expect(result.error?.message).toMatch(/MD5/);
		expect(result.error?.description).toMatch(/was not deleted/);
	}, 30_000);

	it('with no MD5 ETag from the CDN, a moved file is read back and its MD5 compared before the source goes', async () => {
		const source = 'fm-ok/report.txt';
		await storeSettled(source, 'moved whole');
		const result = await move(source, 'fm-ok-to/report.txt');
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.checked).toEqual(['size', 'md5']);
		expect(await read('fm-ok-to/report.txt')).toBe('moved whole');
		expect(await read(source)).toBeUndefined();
	}, 30_000);
});
