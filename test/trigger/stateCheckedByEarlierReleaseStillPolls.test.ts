/**
 * docs/trigger.md: saved states keep working after an upgrade (no flood, no lost state), and a state altered after it
 * was saved (one character) is a lost state. Releases before this one hashed a state's text as UTF-8 (where every lone
 * surrogate is the same replacement character); this one hashes its UTF-16 code units. A state whose check is one of
 * an earlier release is still read: as it is where no lone surrogate is hashed, and, where its key list holds one (two
 * keys that share the first half of an emoji), only when its files' records vouch for every key.
 */
import { earlierCheckOf, type Stored } from './earlierCheck';
import { Poller } from './support';
import { ScriptedFolder, startListServer, type ListServer } from '../node/listServer';

let server: ListServer | undefined;
afterEach(async () => await server?.stop());

/** A trigger whose saved state is as an earlier release saved it for `names` (the same fields, its check). */
async function savedByEarlierRelease(
	names: string[],
): Promise<{ trigger: Poller; folder: ScriptedFolder; saved: Stored }> {
	const folder = new ScriptedFolder('in/', names);
	server = await startListServer(folder.answer, undefined, folder.exists);
	const trigger = new Poller(server, { folder: 'in', watchFor: ['created', 'deleted'] } as never);
	expect((await trigger.poll()).returnedNull).toBe(true);
	const now = trigger.savedState as Stored;
	const saved = { ...now, check: earlierCheckOf(now) };
	expect(saved.check).not.toBe(now.check);
	trigger.savedState = saved;
	return { trigger, folder, saved };
}

const EMOJI_KEYS = ['\u{1F4C4} report.txt', '\u{1F4C5} plan.txt', '\u{1F4C5} plan 2.txt', 'a.txt'];

describe('a state saved by an earlier release (its check hashed as UTF-8)', () => {
	it('without a lone surrogate in its text: polls with no item, and still reports a deletion', async () => {
		const { trigger, folder } = await savedByEarlierRelease(['a.txt', 'b.txt', 'c.txt']);
		expect(await trigger.changes()).toEqual([]);
		folder.remove('b.txt');
		expect(await trigger.changes()).toEqual([['deleted', 'in/b.txt']]);
	});

	it('whose key list holds lone surrogates (keys sharing half an emoji): polls with no item, keys intact', async () => {
		const { trigger, folder, saved } = await savedByEarlierRelease(EMOJI_KEYS);
		expect(saved.keys).toContain('\uDCC5 plan');
		expect(await trigger.changes()).toEqual([]);
		folder.remove('\u{1F4C5} plan.txt');
		expect(await trigger.changes()).toEqual([['deleted', 'in/\u{1F4C5} plan.txt']]);
		expect(await trigger.changes()).toEqual([]);
	});

	it('altered in one lone surrogate of its key list: a lost state, never a deletion of a key never stored', async () => {
		const { trigger, saved } = await savedByEarlierRelease(EMOJI_KEYS);
		const keys = saved.keys!.replace('\uDCC5', '\uDCC6');
		// Altered as a damaged row would be: the earlier check cannot tell the two lone surrogates apart.
		expect(earlierCheckOf({ ...saved, keys })).toBe(saved.check);
		trigger.savedState = { ...saved, keys };
		expect(await trigger.changes()).toEqual([['stateLost', 'null']]);
		expect(await trigger.changes()).toEqual([]);
	});
});
