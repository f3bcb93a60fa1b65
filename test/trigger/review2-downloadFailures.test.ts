/**
 * Review: the trigger's Download File failure rules against Max Files Per Poll, polled through
 * n8n-core's PollContext against a scripted list server whose CDN refuses chosen keys.
 */
import { Poller } from './support';
import { ScriptedFolder, startListServer, type ListServer } from '../node/listServer';

describe('Download File failures with Max Files Per Poll', () => {
	let server: ListServer | undefined;
	afterEach(async () => await server?.stop());
	const refused = new Set<string>();
	afterEach(() => refused.clear());

	const keysOf = (items: Array<{ json: { key?: unknown } }>) => items.map((item) => item.json.key);

	it('a file whose download fails does not hold up the other files when Max Files Per Poll is 1', async () => {
		const folder = new ScriptedFolder('cap/', []);
		server = await startListServer(folder.answer, (key) =>
			refused.has(key) ? { status: 403, body: 'Forbidden' } : { status: 200, body: `content of ${key}` },
		);
		const trigger = new Poller(server, {
			folder: 'cap',
			options: { downloadFile: true, maxRetries: 0, maxFilesPerPoll: 1 },
		} as never);
		expect((await trigger.poll()).returnedNull).toBe(true);
		// Same last_modified: ordered by key, so a.txt (refused) comes first.
		folder.put('a.txt', 'content of cap/a.txt'.length);
		folder.put('b.txt', 'content of cap/b.txt'.length);
		refused.add('cap/a.txt');
		const first = await trigger.poll();
		// README: "a download that fails … holds back only that file: the others are emitted";
		// the poll's own error says "Other files are not held up by it."
		expect(first.error?.message).toBeUndefined();
		expect(keysOf(first.items)).toEqual(['cap/b.txt']);
	});
});
