/**
 * Version 3 runs items in parallel, and the API has no conditional write: items of one run that
 * name the same key take turns (each sees what the one before did), and an item keeps its turn
 * until it finishes. Without that, two items would both find a key free and one would replace
 * the other's file, or delete it as a faulty copy.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { HarnessItem } from '../harness';

import { fileItem, runFileStorage, storedText, uploadWithNode, useEmulator } from './support';

const emulator = useEmulator();
const read = async (key: string) => await storedText(emulator(), key);

beforeEach(() => emulator().setFaults([]));

async function runV3(parameters: INodeParameters, items: HarnessItem[], requests = 4) {
	return await runFileStorage(
		emulator(),
		{ ...parameters, options: { ...(parameters.options as object), parallelRequests: requests } },
		{ typeVersion: 3, continueOnFail: true, items },
	);
}

describe('Upload with Refuse Existing File: items of one run with the same key take turns', () => {
	it('two attachments named invoice.pdf: the one whose turn comes first is stored, the other is refused, nothing is replaced', async () => {
		const invoices = ['first invoice', 'second invoice'];
		const result = await runV3(
			{ resource: 'file', operation: 'upload', key: 'turns/invoice.pdf', options: { refuseExisting: true } },
			invoices.map((text) => fileItem(Buffer.from(text), 'invoice.pdf')),
		);
		// Items run at once: which takes the key's turn first depends on timing, never both.
		const stored = result.items.findIndex((item) => item.json.error === undefined);
		expect(stored).toBeGreaterThanOrEqual(0);
		expect(String(result.items[1 - stored].json.error)).toMatch(/already exists/);
		expect(await read('turns/invoice.pdf')).toBe(invoices[stored]);
	});
});

describe('Copy and Move onto one destination: items take turns', () => {
	const moveAll = async (sources: string[], requests: number, to: string) =>
		await runV3(
			{
				resource: 'file',
				operation: 'move',
				fileKey: { __rl: true, mode: 'key', value: '={{ $json.from }}' },
				destinationKey: to,
			},
			sources.map((from) => ({ json: { from } })),
			requests,
		);

	it('two same-size sources onto one destination (Replace off): one moves, the other keeps its source', async () => {
		await uploadWithNode(emulator(), 'turns/a.txt', 'source A', { visibility: 'private' });
		await uploadWithNode(emulator(), 'turns/b.txt', 'source B', { visibility: 'private' });
		await new Promise((resolve) => setTimeout(resolve, 4100));
		const result = await moveAll(['turns/a.txt', 'turns/b.txt'], 4, 'turns/ab.txt');
		const all = [await read('turns/a.txt'), await read('turns/b.txt'), await read('turns/ab.txt')];
		expect(all).toEqual(expect.arrayContaining(['source A', 'source B']));
		expect(result.items.filter((item) => item.json.error === undefined)).toHaveLength(1);
	});

	it('a turn is kept for every item still queued: the first item fails, the two queued behind it still take turns', async () => {
		// Item 0 holds the destination's turn and fails (its source is missing); item 1 is queued
		// for the destination; item 2 starts as item 0 ends (one request at a time: two items under way).
		for (const name of ['f', 'g']) {
			await uploadWithNode(emulator(), `turns/${name}.txt`, `source ${name}`, { visibility: 'private' });
		}
		await new Promise((resolve) => setTimeout(resolve, 4100));
		const result = await moveAll(['turns/missing.txt', 'turns/f.txt', 'turns/g.txt'], 1, 'turns/fg.txt');
		const all = await Promise.all(['f', 'g', 'fg'].map(async (name) => await read(`turns/${name}.txt`)));
		expect(all).toEqual(expect.arrayContaining(['source f', 'source g']));
		expect(result.items.filter((item) => item.json.error === undefined)).toHaveLength(1);
	});

	it('two items moving a to b and b to a at once both finish (no deadlock), and no byte is lost', async () => {
		await uploadWithNode(emulator(), 'turns/left.txt', 'left', { visibility: 'private' });
		await uploadWithNode(emulator(), 'turns/right.txt', 'right', { visibility: 'private' });
		await new Promise((resolve) => setTimeout(resolve, 4100));
		const result = await runV3(
			{
				resource: 'file',
				operation: 'copy',
				fileKey: { __rl: true, mode: 'key', value: '={{ $json.from }}' },
				destinationKey: '={{ $json.to }}',
				options: { replace: true },
			},
			[
				{ json: { from: 'turns/left.txt', to: 'turns/right.txt' } },
				{ json: { from: 'turns/right.txt', to: 'turns/left.txt' } },
			],
		);
		expect(result.items).toHaveLength(2);
		const both = [await read('turns/left.txt'), await read('turns/right.txt')];
		expect(both.every((text) => text === 'left' || text === 'right')).toBe(true);
	});
});

describe('File → Delete takes its turn on its key', () => {
	it('two Deletes of one key in one run take turns: one deletes it, the other finds it gone', async () => {
		await uploadWithNode(emulator(), 'turns/gone.txt', 'to delete', { visibility: 'private' });
		const result = await runV3(
			{
				resource: 'file',
				operation: 'delete',
				fileKey: { __rl: true, mode: 'key', value: 'turns/gone.txt' },
			},
			[{ json: {} }, { json: {} }],
		);
		// One delete removes it; the other, in its turn after, finds it gone (the API's 404): an error item.
		expect(result.items.filter((item) => item.json.error === undefined)).toHaveLength(1);
		expect(await read('turns/gone.txt')).toBeUndefined();
	});
});

describe('two items of one version-3 run moving different files onto one destination', () => {
	it('Replace Existing File off never loses a source: at most one Move succeeds, every byte is still somewhere', async () => {
		await uploadWithNode(emulator(), 'race/x.txt', 'the x file', { visibility: 'private' });
		await uploadWithNode(emulator(), 'race/y.txt', 'the longer y file', { visibility: 'private' });
		await new Promise((resolve) => setTimeout(resolve, 4100));
		const result = await runFileStorage(
			emulator(),
			{
				resource: 'file',
				operation: 'move',
				fileKey: { __rl: true, mode: 'key', value: '={{ $json.from }}' },
				destinationKey: 'race/out.txt',
				options: { parallelRequests: 4 },
			},
			{
				typeVersion: 3,
				continueOnFail: true,
				items: [{ json: { from: 'race/x.txt' } }, { json: { from: 'race/y.txt' } }],
			},
		);
		const all = [await read('race/x.txt'), await read('race/y.txt'), await read('race/out.txt')];
		expect(all).toEqual(expect.arrayContaining(['the x file', 'the longer y file']));
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});
});
