/**
 * The listing's `last_modified` spelled another way for the same instant. docs/trigger.md and
 * listing/listingTime.ts: a date without a zone is UTC ("a service or a gateway re-serializing its JSON
 * that drops the 'Z' still means UTC"); a file is updated only when its size, last_modified, content type
 * or visibility changed. The same second spelled with or without the zone, or with milliseconds, is no
 * change: no file stored before activation and never changed is emitted.
 */
import { Poller } from './support';
import { ScriptedFolder, startListServer, type ListServer } from '../node/listServer';

let server: ListServer | undefined;
afterEach(async () => await server?.stop());

const SPELLINGS: Array<[string, (iso: string) => string]> = [
	['without its zone (a gateway dropped the "Z")', (iso) => iso.replace(/Z$/, '')],
	['with milliseconds', (iso) => iso.replace(/Z$/, '.000Z')],
	['with an explicit +00:00 offset', (iso) => iso.replace(/Z$/, '+00:00')],
];

describe('the same last_modified instant, spelled differently by a later answer', () => {
	it.each(SPELLINGS)('%s: an unchanged file is not emitted as updated', async (_, respell) => {
		const folder = new ScriptedFolder('dated/', ['a.txt', 'b.txt']);
		let spell = (iso: string) => iso;
		server = await startListServer(
			(request) => {
				const answer = folder.answer(request);
				const children = answer.children.map((entry) => {
					const file = entry as { last_modified?: string };
					return file.last_modified ? { ...file, last_modified: spell(file.last_modified) } : file;
				});
				return { ...answer, children };
			},
			undefined,
			folder.exists,
		);
		const trigger = new Poller(server, { folder: 'dated', watchFor: ['created', 'updated'] } as never);
		expect((await trigger.poll()).returnedNull).toBe(true);
		spell = respell;
		expect(await trigger.changes()).toEqual([]);
	});
});
