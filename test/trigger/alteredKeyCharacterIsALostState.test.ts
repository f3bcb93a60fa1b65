/**
 * docs/trigger.md: "A state altered after it was saved (one character) is a lost state, never read as changes."
 * Kept keys are front-coded by UTF-16 code units (trigger/stateCodec.ts), so two keys that start with the same emoji
 * share its first half: the second key's stored rest starts with a lone low surrogate. The integrity hash reads the
 * key list as UTF-8, where every lone surrogate is the same replacement character: one of them altered still matches
 * the hash, and the key it spells is read as a file of the state.
 */
import { Poller } from './support';
import { ScriptedFolder, startListServer, type ListServer } from '../node/listServer';

let server: ListServer | undefined;
afterEach(async () => await server?.stop());

describe('a state whose kept key list was altered in one character', () => {
	it('is a lost state even where the character is half of an emoji a key shares with the key before it', async () => {
		// "📄" is \uD83D\uDCC4, "📅" is \uD83D\uDCC5: the second key's rest starts with \uDCC5.
		const folder = new ScriptedFolder('in/', ['\u{1F4C4} report.txt', '\u{1F4C5} plan.txt']);
		server = await startListServer(folder.answer, undefined, folder.exists);
		const trigger = new Poller(server, { folder: 'in', watchFor: ['created', 'deleted'] } as never);
		expect((await trigger.poll()).returnedNull).toBe(true);
		const saved = trigger.savedState as { keys: string };
		expect(saved.keys).toContain('\uDCC5 plan.txt');
		// One character of the saved state altered (a hand edit, a damaged row): \uDCC5 becomes \uDCC6 ("📆").
		trigger.savedState = { ...saved, keys: saved.keys.replace('\uDCC5', '\uDCC6') };
		const result = await trigger.poll();
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => [item.json.event, item.json.key])).toEqual([['stateLost', null]]);
	});
});
