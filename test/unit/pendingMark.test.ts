/**
 * The mark saved while a new scope could record no starting point carries what the state before it knew (records
 * aside, held changes), checked as a state is. docs/trigger.md, Emit Existing Files and A lost state.
 */
import { earlierCheckOf } from '../trigger/earlierCheck';
import { handOver, OUT_OF_SCOPE_RECORDS } from '../../nodes/FileStorage/trigger/outOfScope';
import { pendingBaseline } from '../../nodes/FileStorage/trigger/pendingMark';
import { readState } from '../../nodes/FileStorage/trigger/readState';
import {
	fingerprint,
	keyHash,
	placeOf,
	scopeOf,
	stateOf,
	type ListedFile,
	type WatchState,
} from '../../nodes/FileStorage/trigger/state';

function file(key: string, over: Partial<ListedFile> = {}): ListedFile {
	return {
		key,
		name: key.slice(key.lastIndexOf('/') + 1),
		size: 10,
		content_type: 'text/plain',
		last_modified: '2026-11-23T10:00:00Z',
		visibility: 'private',
		...over,
	};
}

const where = { bucket: 'b', region: 'r', recursive: false, filter: '', keepKeys: false };
const place = placeOf('b', 'r');
const quiet = {
	scope: scopeOf({ ...where, prefix: 'quiet/' }),
	carried: scopeOf({ ...where, prefix: 'quiet/', keepKeys: true }),
	place,
};
const busy = scopeOf({ ...where, prefix: 'busy/' });

/** The state of quiet/: a.txt recorded, an update of b.txt held back (its record is the version before). */
function quietState(): WatchState {
	const state = stateOf([file('quiet/a.txt'), file('quiet/b.txt')], false);
	const held = file('quiet/b.txt', { size: 20 });
	state.failures = new Map([
		[keyHash('quiet/b.txt'), { fingerprint: fingerprint(held), attempts: 1, held: { event: 'updated', file: held } }],
		[keyHash('quiet/c.txt'), { fingerprint: 7, attempts: 1 }],
	]);
	state.aside = new Map([[keyHash('other/d.txt'), 5]]);
	return state;
}

const stored = (mark: unknown) => JSON.parse(JSON.stringify(mark)) as Record<string, unknown>;

describe('a pending mark saved by a change of scope', () => {
	it('hands the records and held changes over to the next scope of the same bucket', () => {
		const mark = stored(pendingBaseline(busy, { place, state: handOver(quietState()) }));
		const read = readState(mark, quiet, false);
		expect(read.otherScope).toBe(true);
		expect([...read.earlier!.aside!.keys()]).toEqual([
			keyHash('quiet/a.txt'),
			keyHash('quiet/b.txt'),
			keyHash('other/d.txt'),
		]);
		expect(read.earlier!.aside!.get(keyHash('quiet/b.txt'))).toBe(fingerprint(file('quiet/b.txt')));
		expect(read.earlier!.files.size).toBe(0);
		// Only held changes are handed over: a bare count names no change to emit.
		expect([...read.earlier!.failures!.keys()]).toEqual([keyHash('quiet/b.txt')]);
		expect(read.earlier!.failures!.get(keyHash('quiet/b.txt'))!.held!.file.size).toBe(20);
	});

	it('hands them to its own scope, for the baseline it records', () => {
		const mark = stored(pendingBaseline(busy, { place, state: handOver(quietState()) }));
		const busyScopes = { scope: busy, carried: scopeOf({ ...where, prefix: 'busy/', keepKeys: true }), place };
		expect(readState(mark, busyScopes, false).handed?.aside?.size).toBe(3);
		expect(readState(mark, { ...quiet, place: placeOf('b2', 'r') }, false)).toEqual({ otherScope: true });
	});

	it(`keeps at most ${OUT_OF_SCOPE_RECORDS} records, those watched first`, () => {
		const earlier = stateOf([file('quiet/a.txt')], false);
		earlier.aside = new Map();
		for (let i = 0; i < OUT_OF_SCOPE_RECORDS; i++) earlier.aside.set(keyHash(`old-${i}`), i);
		const aside = handOver(earlier).aside!;
		expect(aside.size).toBe(OUT_OF_SCOPE_RECORDS);
		expect([...aside.keys()][0]).toBe(keyHash('quiet/a.txt'));
	});

	it('is covered by the check: what it hands over altered or removed, it is a lost state', () => {
		const mark = stored(pendingBaseline(busy, { place, state: handOver(quietState()) }));
		const aside = String(mark.aside);
		const failures = mark.failures as Record<string, unknown[]>;
		const [hash] = Object.keys(failures);
		const damaged = [
			{ ...mark, aside: (aside[0] === 'A' ? 'B' : 'A') + aside.slice(1) },
			{ ...mark, failures: { ...failures, [hash]: [...failures[hash].slice(0, 5), 999, ...failures[hash].slice(6)] } },
			{ ...mark, place: placeOf('b2', 'r') },
			Object.fromEntries(Object.entries(mark).filter(([name]) => name !== 'aside')),
			Object.fromEntries(Object.entries(mark).filter(([name]) => name !== 'failures')),
		];
		for (const altered of damaged) expect(readState(altered, quiet, false)).toEqual({ lost: expect.any(String) });
	});

	it('names nothing more when there is nothing to hand over: the mark of earlier releases', () => {
		expect(pendingBaseline(busy, { place, state: { files: new Map() } })).toEqual(pendingBaseline(busy));
		expect(Object.keys(pendingBaseline(busy)).sort()).toEqual(['check', 'pending', 'scope', 'version']);
	});

	it('saved by an earlier release (its check hashed as UTF-8) still hands over, and altered it is a lost state', () => {
		const emoji = file('quiet/\u{1F4C5} plan.txt', { size: 20 });
		const state = quietState();
		state.failures!.set(keyHash(emoji.key), { fingerprint: 1, attempts: 1, held: { event: 'created', file: emoji } });
		const now = stored(pendingBaseline(busy, { place, state: handOver(state) }));
		const earlier = { ...now, check: earlierCheckOf(now) };
		expect(earlier.check).not.toBe(now.check);
		expect(readState(earlier, quiet, false).earlier?.failures?.size).toBe(2);
		expect(readState({ ...earlier, place: placeOf('b2', 'r') }, quiet, false)).toEqual({ lost: expect.any(String) });
	});

	it('without its check, a mark holding what only checked marks held (place, records aside, held changes) is lost', () => {
		const { check: _check, ...unchecked } = stored(pendingBaseline(busy, { place, state: handOver(quietState()) }));
		const without = (...names: string[]) =>
			Object.fromEntries(Object.entries(unchecked).filter(([name]) => !names.includes(name)));
		for (const removed of [unchecked, without('aside'), without('failures'), without('aside', 'failures')])
			expect(readState(removed, quiet, false)).toEqual({ lost: expect.any(String) });
		// Marks of releases before the check named their scope only: still a fresh start.
		expect(readState(without('aside', 'failures', 'place'), quiet, false)).toEqual({ otherScope: true });
	});
});
