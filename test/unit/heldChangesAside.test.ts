/**
 * Held-back changes (their download failed) as pure functions: the bound of HELD_CHANGES over all the held changes a
 * state keeps, and those of files a change of scope leaves out kept aside and brought back.
 * docs/trigger.md: "A held-back change is never dropped"; "at most 10,000 held changes".
 */
import { HELD_CHANGES, heldCount, recordAttempts } from '../../nodes/FileStorage/trigger/attempts';
import { heldCarriedOver } from '../../nodes/FileStorage/trigger/heldBack';
import { handOver } from '../../nodes/FileStorage/trigger/outOfScope';
import type { TriggerSettings } from '../../nodes/FileStorage/trigger/settings';
import {
	fingerprint,
	keyHash,
	type DownloadFailure,
	type ListedFile,
	type WatchState,
} from '../../nodes/FileStorage/trigger/state';
import { openMark, pendingBaseline } from '../../nodes/FileStorage/trigger/pendingMark';
import { decodeState, encodeState, openState } from '../../nodes/FileStorage/trigger/stateCodec';

function file(key: string, size = 10): ListedFile {
	const name = key.slice(key.lastIndexOf('/') + 1);
	return { key, name, size, content_type: 'text/plain', last_modified: '2026-11-23T10:00:00Z', visibility: 'private' };
}

function held(event: 'created' | 'updated', listed: ListedFile, attempts = 1): DownloadFailure {
	return { fingerprint: fingerprint(listed), attempts, held: { event, file: listed } };
}

/** Settings of a scope: the folder, and a filter on the name. */
function scopeOf(prefix: string, filter: (key: string) => boolean = () => true): TriggerSettings {
	return { prefix, recursive: true, filter, watch: new Set(['created', 'updated', 'deleted']) } as never;
}

describe(`at most ${HELD_CHANGES} held changes, poll after poll`, () => {
	it('a change beyond the bound, counting those an earlier poll keeps, is held without its listing, still counted', () => {
		const failures = new Map<string, DownloadFailure>();
		const keptBefore = HELD_CHANGES - 5;
		for (let i = 0; i < 10; i++) {
			recordAttempts(failures, { event: 'created', key: `f/${i}`, file: file(`f/${i}`) }, 1, keptBefore);
		}
		expect(heldCount(failures)).toBe(5);
		// Not dropped: every change keeps its count (the state stays as it was for it, the next poll finds it again).
		expect(failures.size).toBe(10);
		expect(failures.get(keyHash('f/9'))).toEqual({ fingerprint: fingerprint(file('f/9')), attempts: 1 });
	});

	it('earlier held changes not settled plus new ones never pass the bound, however many polls', () => {
		let kept = new Map<string, DownloadFailure>();
		for (let poll = 0; poll < 4; poll++) {
			// Every held change of the poll before is kept (its file gone, no room to emit it), and as many new fail.
			const failures = new Map<string, DownloadFailure>();
			const before = heldCount(kept);
			for (let i = 0; i < HELD_CHANGES; i++) {
				const key = `p${poll}/${i}`;
				recordAttempts(failures, { event: 'created', key, file: file(key) }, 1, before);
			}
			kept = new Map([...kept, ...failures]);
			expect(heldCount(kept)).toBeLessThanOrEqual(HELD_CHANGES);
		}
		expect(heldCount(kept)).toBe(HELD_CHANGES);
	});
});

describe('held changes of files a change of scope leaves out are kept aside', () => {
	const updated = file('in/a.txt', 20);
	const created = file('in/b.txt');
	const before = fingerprint(file('in/a.txt', 10));

	function stateWithHeld(): WatchState {
		const failures = new Map([
			[keyHash(updated.key), held('updated', updated, 2)],
			[keyHash(created.key), held('created', created)],
		]);
		return { files: new Map([[keyHash(updated.key), before]]), failures };
	}

	it('go aside with their records when the new scope leaves them out, and come back when it watches them', () => {
		const narrowed = scopeOf('in/', (key) => key.endsWith('.csv'));
		const middle: WatchState = { files: new Map(), aside: new Map([[keyHash(updated.key), before]]) };
		heldCarriedOver(narrowed, stateWithHeld(), middle);
		expect(middle.failures).toBeUndefined();
		expect([...middle.heldAside!.values()].map((failure) => failure.held!.file.key).sort()).toEqual([
			updated.key,
			created.key,
		]);
		// The scope back: each comes back as the change it was, with its count; nothing stays aside.
		const back: WatchState = { files: new Map([[keyHash(updated.key), fingerprint(updated)]]) };
		heldCarriedOver(scopeOf('in/'), middle, back);
		expect(back.heldAside).toBeUndefined();
		expect(back.failures!.get(keyHash(updated.key))!.attempts).toBe(2);
		expect(back.failures!.get(keyHash(created.key))!.held!.event).toBe('created');
		// The version before the update, from the records aside: the next poll finds the update again.
		expect(back.files.get(keyHash(updated.key))).toBe(before);
	});

	it('are stored among the held changes, marked, read back apart, and covered by the check', () => {
		const state: WatchState = { files: new Map(), heldAside: stateWithHeld().failures };
		const stored = JSON.parse(JSON.stringify(encodeState(state, '0123456789abcdef')));
		const read = decodeState(stored, '0123456789abcdef')!;
		expect(read.heldAside).toEqual(state.heldAside);
		expect(read.failures?.size).toBe(0);
		// Each stored as an earlier release stores a failure, [fingerprint, attempts, …]: it reads it as a count.
		for (const value of Object.values(stored.failures as object)) {
			expect(value.slice(0, 2)).toEqual([expect.any(Number), expect.any(Number)]);
		}
		const altered = structuredClone(stored);
		const [hash] = Object.keys(altered.failures);
		altered.failures[hash][3] = 'in/other.txt';
		expect(openState(altered)).toEqual({ lost: expect.stringMatching(/altered/) });
	});

	it('a state of an earlier release (held changes unmarked) loads as it was: nothing aside', () => {
		const stored = JSON.parse(JSON.stringify(encodeState(stateWithHeld(), '0123456789abcdef')));
		const read = decodeState(stored, '0123456789abcdef')!;
		expect(read.heldAside).toBeUndefined();
		expect(read.failures).toEqual(stateWithHeld().failures);
	});

	it('a mark waiting for a starting point hands them over with the others, for the baseline to sort', () => {
		const state: WatchState = {
			...stateWithHeld(),
			heldAside: new Map([['00aa00aa00aa00aa', held('created', file('out/c.txt'))]]),
		};
		const mark = pendingBaseline('0123456789abcdef', { place: 'fedcba9876543210', state: handOver(state) });
		const opened = openMark(JSON.parse(JSON.stringify(mark)));
		expect('handed' in opened && opened.handed!.state.failures!.size).toBe(3);
	});
});
