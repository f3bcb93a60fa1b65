/**
 * How often the node has n8n evaluate a parameter per item. In real n8n 2.x an expression is
 * evaluated in an isolated VM, which costs about a millisecond per evaluation: with many items
 * that is seconds, so each item's parameter is read once.
 */
import { WorkflowExpression } from 'n8n-workflow';

import { fileItem, randomFile, runFileStorage, useEmulator } from './support';

const emulator = useEmulator();
const V3 = { typeVersion: 3 };
const COUNT = 5;

/** Evaluations of parameter values that hold `text`, while `run` runs. */
async function evaluationsOf(text: string, run: () => Promise<unknown>): Promise<number> {
	const spy = jest.spyOn(WorkflowExpression.prototype, 'getParameterValue');
	try {
		await run();
		return spy.mock.calls.filter(([value]) => JSON.stringify(value).includes(text)).length;
	} finally {
		spy.mockRestore();
	}
}

describe('parameter reads per item', () => {
	beforeAll(async () => {
		const items = Array.from({ length: COUNT }, (_, i) => fileItem(randomFile(100), `f-${i}.bin`));
		const result = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'upload', key: '', folder: 'reads', options: {} },
			{ ...V3, items },
		);
		expect(result.error).toBeUndefined();
	});

	const keys = Array.from({ length: COUNT }, (_, i) => ({ json: { key: `reads/f-${i}.bin` } }));

	it('File in By URL mode is still read from the location, once per item', async () => {
		const evaluations = await evaluationsOf('$json.url', async () => {
			const result = await runFileStorage(
				emulator(),
				{
					resource: 'file',
					operation: 'getInfo',
					fileKey: { __rl: true, mode: 'url', value: '={{ $json.url }}' },
					options: {},
				},
				{ ...V3, items: [{ json: { url: 'https://cdn.example.com/f/my-access-id/reads/f-0.bin' } }] },
			);
			expect(result.error).toBeUndefined();
			expect(result.items[0].json.key).toBe('reads/f-0.bin');
		});
		expect(evaluations).toBe(1);
	});
	it.each(['getInfo', 'download', 'delete'])(
		"%s evaluates the File expression once per item (each evaluation costs real n8n's expression VM)",
		async (operation) => {
			const evaluations = await evaluationsOf('$json.key', async () => {
				const result = await runFileStorage(
					emulator(),
					{ resource: 'file', operation, fileKey: '={{ $json.key }}', options: {} },
					{ ...V3, items: keys },
				);
				expect(result.error).toBeUndefined();
				expect(result.items).toHaveLength(COUNT);
			});
			expect(evaluations).toBe(COUNT);
		},
	);
});
