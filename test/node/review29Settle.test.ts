/**
 * Review 29: Move and a source replaced in the second it was written (the listing dates to the second).
 */
import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../harness';
import { eventually, useProxy } from './proxy';
import { BUCKET, credentialsFor, storedText, uploadWithNode, useEmulator } from './support';

const emulator = useEmulator();
const proxy = useProxy(emulator);

const byKey = (value: string) => ({ __rl: true, mode: 'key', value });

async function store(key: string, bytes: string, visibility = 'public') {
	await uploadWithNode(emulator(), key, bytes, { visibility });
}

const read = async (key: string) => await storedText(emulator(), key);

describe('review 29: Move and a source replaced within the second it was written', () => {
	it('Move never deletes a stored version it did not copy: a same-size replacement in the same second as the version read', async () => {
		const key = 'samesecond/source.txt';
		// Start at the top of a second, so both versions are listed with the same whole-second date.
		while (Date.now() % 1000 > 50) await new Promise((resolve) => setTimeout(resolve, 5));
		await store(key, 'version-1');
		// The source's bytes come through the proxy, whose answer is held while the source is replaced.
		emulator().setFaults([
			{ operation: 'signedUrl', rewrite: { url: `${proxy().url}/f/${emulator().accessId}/${key}` }, nth: [1] },
		]);
		proxy().setRules({ holdAnswer: { cdn: 400 } });
		const parameters: INodeParameters = {
			...BUCKET,
			resource: 'file',
			operation: 'move',
			fileKey: byKey(key),
			destinationKey: 'samesecond/moved.txt',
			options: { replace: true },
		};
		const moving = runNode({ credentials: credentialsFor(emulator()), parameters });
		expect(await eventually(() => proxy().exchanges.some((e) => e.operation === 'cdn'), 5_000)).toBe(true);
		await store(key, 'version-2');
		const result = await moving;
		// The read of 'version-1', in the second it was written, is waited out and done again.
		expect(result.error).toBeUndefined();
		expect(await read('samesecond/moved.txt')).toBe('version-2');
		expect(await read(key)).toBeUndefined();
	});
});
