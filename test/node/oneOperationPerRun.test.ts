/**
 * Every item of a node run does the node's one operation (Resource and Operation take no expression): the marks
 * a write with an unknown outcome leaves for the rest of the run (docs/api-choices.md, "What became of a failed
 * write") rest on it. The items beside a Folder → Delete are Folder → Deletes, whose only writes are deletes: a
 * late one removes what the folder's delete removes too, and none can store a file in the folder. Through
 * n8n-core's engine: an expression in Resource or Operation is not evaluated per item, and nothing is sent.
 */
import { putText, runFileStorage, storedText, useEmulator } from './support';

const emulator = useEmulator();

beforeEach(() => emulator().resetStats());

const folder = (value: string) => ({ __rl: true, mode: 'path', value });

describe('One operation per node run', () => {
	it.each([
		['Operation', { resource: 'folder', operation: '={{ $json.operation }}' }],
		['Resource', { resource: '={{ $json.resource }}', operation: 'delete' }],
	])(
		'%s given by an expression naming another operation per item (a Folder → Copy beside a Folder → Delete) is not run per item, and nothing is sent',
		async (_, chosen) => {
			await putText(emulator(), 'one-operation-src/a.txt', 'a file to copy', 'setup');
			await putText(emulator(), 'one-operation-dst/b.txt', 'a file of the folder to delete', 'setup');
			const result = await runFileStorage(
				emulator(),
				{
					...chosen,
					folder: folder('one-operation-dst/'),
					sourceFolder: folder('one-operation-src/'),
					destinationFolder: folder('one-operation-dst/'),
				},
				{
					typeVersion: 3,
					continueOnFail: true,
					items: [
						{ json: { resource: 'folder', operation: 'copy' } },
						{ json: { resource: 'folder', operation: 'delete' } },
					],
				},
			);
			expect(result.items.map((item) => typeof item.json.error)).toEqual(['string', 'string']);
			const sent = Object.values(emulator().stats().requests).reduce((sum, count) => sum + count, 0);
			expect(sent).toBe(0);
			expect(await storedText(emulator(), 'one-operation-dst/b.txt')).toBe('a file of the folder to delete');
			expect(await storedText(emulator(), 'one-operation-dst/a.txt')).toBeUndefined();
		},
		30_000,
	);
});
