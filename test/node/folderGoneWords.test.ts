/**
 * Two items of one run moving the same folder to two places, through n8n-core's engine over real
 * HTTP to the emulator: the files the first item moved are `gone` for the second, and its words
 * must not blame someone outside the run for it.
 */
import { runNode } from '../harness';
import { BUCKET, credentialsFor, useEmulator } from './support';

const emulator = useEmulator();
const WHERE = { name: BUCKET.bucketName, region: BUCKET.region };
const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

describe('Folder → Move of one folder by two items of one run', () => {
	it('a file the other item moved is reported gone without blaming another workflow or user alone', async () => {
		await emulator().adversary.put(WHERE, 'twice/a.txt', Buffer.from('AAAA'), {
			visibility: 'private',
			writer: 'setup',
		});
		await sleep(6000);
		const result = await runNode({
			credentials: credentialsFor(emulator()),
			items: [{ json: { dest: 'twice-one/' } }, { json: { dest: 'twice-two/' } }],
			parameters: {
				...BUCKET,
				resource: 'folder',
				operation: 'move',
				folder: { __rl: true, mode: 'path', value: 'twice/' },
				destinationFolder: { __rl: true, mode: 'path', value: '={{ $json.dest }}' },
			},
			continueOnFail: true,
		});
		const gone = result.items.filter((item) => item.json.status === 'gone');
		const moved = result.items.filter((item) => item.json.status === 'moved');
		expect([moved.length, gone.length]).toEqual([1, 1]);
		for (const item of gone) expect(String(item.json.reason)).toMatch(/item of this run/);
	}, 60_000);
});
