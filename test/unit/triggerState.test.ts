import { createHash } from 'node:crypto';

import { keyFilter } from '../../nodes/FileStorage/trigger/glob';
import { keptAside, OUT_OF_SCOPE_RECORDS, setAside } from '../../nodes/FileStorage/trigger/outOfScope';
import {
	advance,
	diff,
	emptyState,
	fingerprint,
	keyHash,
	placeOf,
	scopeOf,
	stateOf,
	recordsStillListed,
	type ListedFile,
} from '../../nodes/FileStorage/trigger/state';
import { pendingBaseline } from '../../nodes/FileStorage/trigger/pendingMark';
import { readState } from '../../nodes/FileStorage/trigger/readState';
import { decodeState, encodeState, frontCode, frontDecode } from '../../nodes/FileStorage/trigger/stateCodec';

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

const SCOPE = scopeOf({ bucket: 'b', region: 'r', prefix: '', recursive: true, filter: '', keepKeys: true });

function roundTrip(files: ListedFile[], keepKeys: boolean) {
	return decodeState(JSON.parse(JSON.stringify(encodeState(stateOf(files, keepKeys), SCOPE))), SCOPE)!;
}

describe('File Name Filter', () => {
	it.each([
		['*.pdf', 'a.pdf', true],
		['*.pdf', 'deep/down/a.pdf', true],
		['*.pdf', 'a.pdf.txt', false],
		['*.pdf', 'a.PDF', false],
		['invoices/*.csv', 'invoices/jan.csv', true],
		['invoices/*.csv', 'invoices/2026/jan.csv', false],
		['invoices/*.csv', 'other/invoices/jan.csv', false],
		['invoices/**/*.csv', 'invoices/jan.csv', true],
		['invoices/**/*.csv', 'invoices/2026/11/jan.csv', true],
		['**', 'any/thing', true],
		['report-??.txt', 'report-07.txt', true],
		['report-??.txt', 'report-7.txt', false],
		['[ab]*.txt', 'b1.txt', true],
		['[!ab]*.txt', 'b1.txt', false],
		['[a-c]?.txt', 'c9.txt', true],
		['*.{pdf,csv}', 'x.csv', true],
		['*.{pdf,csv}', 'x.txt', false],
		['a+b (1).txt', 'a+b (1).txt', true],
		['a+b (1).txt', 'aab (1).txt', false],
		['', 'anything/at/all', true],
		['*.pdf', 'résumé 🚀.pdf', true],
	])('%j on %j is %s', (pattern, key, expected) => {
		expect(keyFilter(pattern)(key)).toBe(expected);
	});

	it('refuses a malformed pattern with the reason', () => {
		expect(() => keyFilter('[abc')).toThrow(/no closing '\]'/);
		expect(() => keyFilter('{a,b')).toThrow(/no closing '}'/);
	});
});

describe('state encoding', () => {
	it('front-codes sorted keys and decodes them back, whatever characters they hold', () => {
		const keys = [
			'a',
			'a,b',
			'a,b,1,c',
			'invoices/2026/11/001.pdf',
			'invoices/2026/11/002.pdf',
			'line\nbreak',
			'résumé 🚀.pdf',
			'x'.repeat(1024),
		].sort();
		expect(frontDecode(frontCode(keys))).toEqual(keys);
		expect(frontDecode('')).toEqual([]);
		expect(() => frontDecode('0,5,ab')).toThrow();
	});

	it('survives a JSON round trip (as n8n saves static data) with every file and fingerprint', () => {
		const files = [file('a.txt'), file('b/c.txt', { size: 11 }), file('d', { size: null, last_modified: null })];
		const state = roundTrip(files, true);
		expect(diff(state, files)).toEqual([]);
		expect(state.keys).toEqual(['a.txt', 'b/c.txt', 'd']);
		expect(roundTrip(files, false).keys).toBeUndefined();
	});

	it('is ignored when it was saved for another bucket, folder, filter or Watch For', () => {
		const stored = encodeState(stateOf([file('a')], true), SCOPE);
		expect(decodeState(stored, SCOPE)).toBeDefined();
		const others = [
			{ bucket: 'b2', region: 'r', prefix: '', recursive: true, filter: '', keepKeys: true },
			{ bucket: 'b', region: 'r2', prefix: '', recursive: true, filter: '', keepKeys: true },
			{ bucket: 'b', region: 'r', prefix: 'x/', recursive: true, filter: '', keepKeys: true },
			{ bucket: 'b', region: 'r', prefix: '', recursive: false, filter: '', keepKeys: true },
			{ bucket: 'b', region: 'r', prefix: '', recursive: true, filter: '*.pdf', keepKeys: true },
			{ bucket: 'b', region: 'r', prefix: '', recursive: true, filter: '', keepKeys: false },
		];
		for (const other of others) expect(decodeState(stored, scopeOf(other))).toBeUndefined();
		expect(decodeState({ ...stored, count: 5 }, SCOPE)).toBeUndefined();
		expect(decodeState({ ...stored, version: 2 }, SCOPE)).toBeUndefined();
		expect(decodeState(undefined, SCOPE)).toBeUndefined();
	});
});

describe('held changes kept with their failure count (a later scan that no longer lists the file emits them)', () => {
	it('a failure with its held change survives encoding; one saved by an earlier release ([fingerprint, attempts]) still loads', () => {
		const listed = file('a.txt', { size: null, content_type: null });
		const state = stateOf([], true);
		state.failures = new Map([
			[keyHash('a.txt'), { fingerprint: 7, attempts: 2, held: { event: 'updated' as const, file: listed } }],
			[keyHash('b.txt'), { fingerprint: 8, attempts: 1 }],
		]);
		const decoded = decodeState(encodeState(state, SCOPE), SCOPE, true)!;
		expect(decoded.failures).toEqual(state.failures);
		const stored = encodeState(stateOf([], true), SCOPE) as unknown as Record<string, unknown>;
		stored.failures = { [keyHash('b.txt')]: [8, 1] };
		delete stored.check;
		expect(decodeState(stored, SCOPE, true)!.failures).toEqual(
			new Map([[keyHash('b.txt'), { fingerprint: 8, attempts: 1 }]]),
		);
	});
});

describe('a widened scope with File Deleted watched (Emit Existing Files)', () => {
	it('a saved key the new scope watches and the complete scan lacks stays, to be reported deleted; others are set aside', () => {
		const saved = stateOf([file('f/keep.txt'), file('f/gone.txt'), file('other/out.txt')], true);
		const inScope = (key: string) => key.startsWith('f/');
		const taken = recordsStillListed(saved, [file('f/keep.txt'), file('f/sub/new.txt')], true, true, inScope);
		expect(taken.keys).toEqual(['f/gone.txt', 'f/keep.txt']);
		expect([...taken.aside!.keys()]).toEqual([keyHash('other/out.txt')]);
		const changes = diff(taken, [file('f/keep.txt'), file('f/sub/new.txt')]);
		expect(changes.map((change) => [change.event, change.key])).toEqual([
			['created', 'f/sub/new.txt'],
			['deleted', 'f/gone.txt'],
		]);
	});
});

describe('diff', () => {
	const before = [file('a'), file('b'), file('c')];

	it('names created, updated and deleted files, oldest first, deletions last', () => {
		const previous = roundTrip(before, true);
		const now = [
			file('a', { last_modified: '2026-11-23T10:00:05Z', size: 11 }),
			file('c'),
			file('n2', { last_modified: '2026-11-23T10:00:03Z' }),
			file('n1', { last_modified: '2026-11-23T10:00:03Z' }),
		];
		expect(diff(previous, now).map((c) => [c.event, c.key])).toEqual([
			['created', 'n1'],
			['created', 'n2'],
			['updated', 'a'],
			['deleted', 'b'],
		]);
	});

	it.each([
		['size', { size: 11 }],
		['last_modified', { last_modified: '2026-11-23T10:00:01Z' }],
		['content_type', { content_type: 'text/csv' }],
		['visibility', { visibility: 'public' }],
	])('sees an update of %s alone', (_field, change) => {
		expect(fingerprint(file('a'))).not.toBe(fingerprint(file('a', change)));
		expect(diff(roundTrip(before, false), [file('a', change), file('b'), file('c')])).toMatchObject([
			{ event: 'updated', key: 'a' },
		]);
	});

	it('cannot name deletions without kept keys, and forgets them silently', () => {
		const previous = roundTrip(before, false);
		expect(diff(previous, [file('a')])).toEqual([]);
		const next = roundTrip([file('a')], false);
		// A re-created file is then new again.
		expect(diff(next, [file('a'), file('b')])).toMatchObject([{ event: 'created', key: 'b' }]);
	});

	it('finds everything against an empty state (Emit Existing Files)', () => {
		expect(diff(emptyState(true), before).map((c) => c.event)).toEqual(['created', 'created', 'created']);
	});
});

describe('advance', () => {
	it('keeps withheld changes for the next poll and takes in the rest', () => {
		const previous = roundTrip([file('old'), file('gone1'), file('gone2'), file('changed')], true);
		const now = [
			file('old'),
			file('changed', { size: 99, last_modified: '2026-11-23T10:00:09Z' }),
			file('new1', { last_modified: '2026-11-23T10:00:01Z' }),
			file('new2', { last_modified: '2026-11-23T10:00:02Z' }),
		];
		const changes = diff(previous, now);
		expect(changes.map((c) => c.key)).toEqual(['new1', 'new2', 'changed', 'gone1', 'gone2']);
		// Emitted the first two; the rest are withheld.
		const next = advance(previous, now, changes.slice(2));
		expect(diff(next, now).map((c) => [c.event, c.key])).toEqual([
			['updated', 'changed'],
			['deleted', 'gone1'],
			['deleted', 'gone2'],
		]);
		const last = advance(next, now, []);
		expect(diff(last, now)).toEqual([]);
	});
});

describe('File Deleted added: a state saved without keys takes them from a complete scan', () => {
	it('keeps what the scan shows of it, forgets the rest, and a file new since is still created', () => {
		const saved = stateOf([file('a.txt'), file('b.txt', { size: 2 })], false);
		const scan = [file('b.txt', { size: 3 }), file('a.txt'), file('c.txt')];
		const state = recordsStillListed(saved, scan);
		expect(state.keys).toEqual(['a.txt', 'b.txt']);
		expect([...state.files.keys()].sort()).toEqual([keyHash('a.txt'), keyHash('b.txt')].sort());
		expect(diff(state, scan).map((change) => [change.event, change.key])).toEqual([
			['updated', 'b.txt'],
			['created', 'c.txt'],
		]);
		expect(diff(state, [file('a.txt')]).map((change) => [change.event, change.key])).toEqual([['deleted', 'b.txt']]);
	});
});

describe('what a poll finds saved (Emit Existing Files acts on a first poll and on another scope, never on a lost state)', () => {
	const where = { bucket: 'b', region: 'r', prefix: '', recursive: false, filter: '' };
	const scopes = {
		scope: scopeOf({ ...where, keepKeys: false }),
		carried: scopeOf({ ...where, keepKeys: true }),
		place: placeOf('b', 'r'),
	};
	const scope = scopes.scope;

	it('nothing saved is a first poll', () => {
		expect(readState(undefined, scopes, false)).toEqual({ first: true });
	});

	it.each([
		['a mark that no baseline could be recorded yet', pendingBaseline(scope)],
		['the same mark with File Deleted since added or removed', pendingBaseline(scopes.carried)],
		['a mark saved by an earlier release (no check)', { version: 1, scope, pending: true }],
	])('%s is a fresh start, not a first poll', (_label, stored) => {
		expect(readState(JSON.parse(JSON.stringify(stored)), scopes, false)).toEqual({});
	});

	it.each([
		['the mark of another scope', pendingBaseline('0000000000000000')],
		['a mark of another scope saved by an earlier release', { version: 1, scope: '0000000000000000', pending: true }],
	])('%s is a fresh start of other files (Emit Existing Files emits them)', (_label, stored) => {
		expect(readState(stored, scopes, false)).toEqual({ otherScope: true });
	});

	it.each([
		['its scope replaced by another', { ...pendingBaseline(scope), scope: '0000000000000000' }],
		['its scope damaged', { ...pendingBaseline(scope), scope: 'not a scope' }],
		['an unknown version', { ...pendingBaseline(scope), version: 2 }],
		['pending set to another value', { ...pendingBaseline(scope), pending: 'yes' }],
		['records added', { ...pendingBaseline(scope), count: 0, files: '' }],
		[
			'a whole state with a valid check and `pending: true` added',
			{ ...encodeState(stateOf([file('a')], false), scope, placeOf('b', 'r')), pending: true },
		],
	])('a mark with %s is a lost state', (_label, stored) => {
		expect(readState(stored, scopes, false)).toEqual({ lost: expect.any(String) });
	});

	it('a state of another scope is a fresh start of files never watched (another scope), not a first poll', () => {
		const stored = { ...encodeState({ files: new Map() }, '0000000000000000') };
		expect(readState(stored, scopes, false)).toEqual({ otherScope: true });
	});

	it('a state of another scope of the same bucket and region comes with its records (a widened scope keeps them)', () => {
		const stored = encodeState(stateOf([file('a')], false), '0000000000000000', placeOf('b', 'r'));
		const read = readState(JSON.parse(JSON.stringify(stored)), scopes, false);
		expect(read.otherScope).toBe(true);
		expect(diff(read.earlier!, [file('a')])).toEqual([]);
		const elsewhere = encodeState(stateOf([file('a')], false), '0000000000000000', placeOf('b2', 'r'));
		expect(readState(elsewhere, scopes, false)).toEqual({ otherScope: true });
	});

	it('a state that cannot be read is lost, not a first poll', () => {
		expect(readState('garbage', scopes, false)).toEqual({ lost: expect.any(String) });
	});

	it.each([
		['its files cut short', (s: Record<string, unknown>) => ({ ...s, files: String(s.files).slice(0, 5) })],
		['its scope damaged', (s: Record<string, unknown>) => ({ ...s, scope: String(s.scope).slice(0, 8) })],
		['its scope replaced by another', (s: Record<string, unknown>) => ({ ...s, scope: '0000000000000000' })],
		[
			'one character of its files changed',
			(s: Record<string, unknown>) => ({ ...s, files: `A${String(s.files).slice(1)}` }),
		],
		[
			'a character outside base64 in its files',
			(s: Record<string, unknown>) => ({ ...s, files: `!${String(s.files).slice(1)}` }),
		],
		['its count changed', (s: Record<string, unknown>) => ({ ...s, count: 3 })],
	])('a state with %s is lost, never another scope, with or without File Deleted', (_label, damage) => {
		for (const keepKeys of [false, true]) {
			const own = keepKeys ? scopes.carried : scopes.scope;
			const saved = JSON.parse(
				JSON.stringify(encodeState(stateOf([file('b'), file('c')], keepKeys), own, scopes.place)),
			);
			expect(readState(saved, scopes, keepKeys).state).toBeDefined();
			expect(saved.files.startsWith('A')).toBe(false);
			for (const now of [false, true])
				expect(readState(damage(saved), scopes, now)).toEqual({ lost: expect.any(String) });
		}
	});

	it('a state saved by an earlier release (no check) is still read, and one with a damaged scope is lost', () => {
		const { check: _check, place: _place, ...earlier } = encodeState(stateOf([file('a')], false), scope);
		expect(readState(earlier, scopes, false).state).toBeDefined();
		expect(readState({ ...earlier, scope: scope.slice(0, 8) }, scopes, false)).toEqual({ lost: expect.any(String) });
	});

	it('without its check, a state holding what only checked states held (place, records aside, a held change) is lost', () => {
		const state = stateOf([file('a'), file('b')], false);
		state.aside = new Map([[keyHash('other/c'), 5]]);
		state.failures = new Map([
			[
				keyHash('b'),
				{ fingerprint: 7, attempts: 1, held: { event: 'updated' as const, file: file('b', { size: 2 }) } },
			],
		]);
		const { check: _check, ...unchecked } = JSON.parse(JSON.stringify(encodeState(state, scope, scopes.place)));
		const { place: _place, aside: _aside, failures: _failures, ...preCheck } = unchecked;
		expect(readState(preCheck, scopes, false).state?.files.size).toBe(2);
		const pair = { [keyHash('b')]: [7, 1] };
		for (const removed of [
			unchecked,
			{ ...preCheck, place: scopes.place },
			{ ...preCheck, aside: unchecked.aside },
			{ ...preCheck, failures: unchecked.failures },
			{ ...preCheck, failures: { ...pair, [keyHash('c')]: 'damaged' } },
		])
			expect(readState(removed, scopes, false)).toEqual({ lost: expect.any(String) });
		// Releases before the check saved failures as [fingerprint, attempts] only: still read.
		expect(readState({ ...preCheck, failures: pair }, scopes, false).state?.failures?.get(keyHash('b'))).toEqual({
			fingerprint: 7,
			attempts: 1,
		});
	});

	it('a state with keys, carried over to File Deleted removed, must hold its keys', () => {
		const saved = encodeState(stateOf([file('a')], true), scopes.carried);
		expect(readState(saved, scopes, false).state?.keys).toBeUndefined();
		const { check: _check, keys: _keys, ...withoutKeys } = saved;
		expect(readState(withoutKeys, scopes, false)).toEqual({ lost: expect.any(String) });
	});
});

describe('state saved by release 0.1.0', () => {
	// As 0.1.0 saved it for these files under 'in/' of bucket 'b' in region 'r', with subfolders.
	const files = [
		file('in/a.txt', { size: 1, last_modified: '2026-01-01T00:00:00Z' }),
		file('in/b.txt', { size: 2, last_modified: '2026-01-01T00:00:00Z' }),
		file('in/sub/c.txt', { size: 3, last_modified: '2026-01-01T00:00:00Z' }),
	];
	const where = { bucket: 'b', region: 'r', prefix: 'in/', recursive: true, filter: '' };
	const RECORDS = 'J3ao4EeOEZdyzn7gKCltmAaYMc9c8kr1OvVOg6IXtHdyH30E';

	it.each([
		['with keys (File Deleted watched)', true, { keys: '0,8,in/a.txt3,5,b.txt3,9,sub/c.txt' }],
		['without keys', false, {}],
	])('%s still loads, and the same files give no change', (_label, keepKeys, extra) => {
		const scope = scopeOf({ ...where, keepKeys });
		const stored = { version: 1, scope, count: 3, files: RECORDS, ...extra };
		const state = decodeState(stored, scope)!;
		expect(state).toBeDefined();
		expect(diff(state, files, true)).toEqual([]);
		expect(diff(state, files.slice(1), true).map((c) => [c.event, c.key])).toEqual(
			keepKeys ? [['deleted', 'in/a.txt']] : [],
		);
	});
});

describe('a scan that is not a snapshot (a folder read over several pages)', () => {
	const before = [file('a'), file('b'), file('c')];

	it('a file it misses is only a deletion to check; one the service still has stays, as it was', () => {
		const previous = roundTrip(before, true);
		const missed = [file('a'), file('c')];
		expect(diff(previous, missed, false)).toEqual([{ event: 'deleted', key: 'b', unconfirmed: true }]);
		// The service still has it: the caller withholds the change, and the file stays known.
		const kept = decodeState(
			JSON.parse(JSON.stringify(encodeState(advance(previous, missed, diff(previous, missed, false), false), SCOPE))),
			SCOPE,
		)!;
		expect(diff(kept, before, false)).toEqual([]);
		expect(kept.keys).toEqual(['a', 'b', 'c']);
		// Reported: it is gone from the state.
		expect(advance(kept, missed, [], false).keys).toEqual(['a', 'c']);
	});

	it('without kept keys, a file incomplete scans miss is kept however often; a complete scan without it forgets it', () => {
		const previous = roundTrip(before, false);
		const missed = [file('a'), file('c')];
		expect(diff(previous, missed, false)).toEqual([]);
		let next = previous;
		for (let scan = 0; scan < 3; scan++) {
			next = decodeState(JSON.parse(JSON.stringify(encodeState(advance(next, missed, [], false), SCOPE))), SCOPE)!;
			expect(next.files.size).toBe(3);
		}
		expect(diff(next, before, false)).toEqual([]);
		expect(advance(next, missed, [], true).files.size).toBe(2);
	});

	it('a file it missed that the next scan finds again is no change', () => {
		const previous = roundTrip(before, false);
		const next = advance(previous, [file('a'), file('c')], [], false);
		expect(diff(next, before, false)).toEqual([]);
		expect(advance(next, before, [], false).missing?.size ?? 0).toBe(0);
	});

	it('a settled scan (every folder in one page) reports a deletion at once, with no check', () => {
		const previous = roundTrip(before, true);
		expect(diff(previous, [file('a'), file('c')], true)).toEqual([{ event: 'deleted', key: 'b' }]);
	});

	it('a state saved with files marked missing (before deletions were checked) loads, and the mark is dropped', () => {
		const saved = encodeState({ ...roundTrip(before, true), missing: new Set([keyHash('b')]) }, SCOPE);
		expect(saved.missing).toBeDefined();
		const state = decodeState(JSON.parse(JSON.stringify(saved)), SCOPE)!;
		expect(diff(state, before, false)).toEqual([]);
		expect(encodeState(advance(state, before, [], false), SCOPE).missing).toBeUndefined();
	});
});

describe('state size', () => {
	const COUNT = 100_000;
	// Keys as a bucket of invoices might hold them: a few folders, long shared prefixes.
	const files = Array.from({ length: COUNT }, (_, i) =>
		file(
			`invoices/${2020 + (i % 7)}/${String((i % 12) + 1).padStart(2, '0')}/customer-${String(i).padStart(6, '0')}-invoice.pdf`,
			{ size: 1000 + i, last_modified: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString() },
		),
	);
	const rawKeyBytes = files.reduce((sum, f) => sum + Buffer.byteLength(f.key), 0);

	it('is at most 16 bytes per file, as saved, when only created and updated files are watched', () => {
		const saved = JSON.stringify(encodeState(stateOf(files, false), SCOPE));
		process.stdout.write(`state for ${COUNT} files without keys: ${saved.length} bytes\n`);
		expect(saved.length).toBeLessThanOrEqual(COUNT * 16 + 200);
	});

	it('keeps keys front-coded, far below their plain size, when deletions are watched', () => {
		const saved = JSON.stringify(encodeState(stateOf(files, true), SCOPE));
		process.stdout.write(
			`state for ${COUNT} files with keys: ${saved.length} bytes (keys alone plain: ${rawKeyBytes} bytes)\n`,
		);
		expect(saved.length - COUNT * 16).toBeLessThan(rawKeyBytes / 2);
		expect(roundTrip(files, true).keys).toHaveLength(COUNT);
	});
});

describe('the same version of a file spelled another way by the listing', () => {
	const listed = file('a.txt', {
		last_modified: '2026-11-23T10:00:00Z',
		content_type: 'text/plain',
		visibility: 'private',
	});

	it.each([
		['its date without a zone', { last_modified: '2026-11-23T10:00:00' }],
		['its date with milliseconds', { last_modified: '2026-11-23T10:00:00.000Z' }],
		['its date with an offset', { last_modified: '2026-11-23T12:00:00+02:00' }],
		['its content type in capitals, with spaces', { content_type: ' Text/Plain ' }],
		['its visibility in capitals', { visibility: 'PRIVATE' }],
	])('%s is no change', (_label, over) => {
		const saved = stateOf([listed], false);
		expect(diff(saved, [file('a.txt', over)])).toEqual([]);
	});

	it.each([
		['a second later', { last_modified: '2026-11-23T10:00:01Z' }],
		['a millisecond later', { last_modified: '2026-11-23T10:00:00.001Z' }],
		['another content type', { content_type: 'text/csv' }],
		['another visibility', { visibility: 'public' }],
	])('%s is a change', (_label, over) => {
		expect(diff(stateOf([listed], false), [file('a.txt', over)]).map((c) => c.event)).toEqual(['updated']);
	});

	it('a record saved by an earlier release of a file the listing spelled otherwise still matches, and is saved anew', () => {
		// Earlier releases hashed the fields as the listing spelled them.
		const spelled = file('a.txt', { last_modified: '2026-11-23T10:00:00.000Z', content_type: 'Text/Plain' });
		const text = [spelled.size, spelled.last_modified, spelled.content_type, spelled.visibility].map(String).join('\n');
		const old = createHash('sha256').update(text, 'utf8').digest().readUInt32BE(0);
		expect(old).not.toBe(fingerprint(spelled));
		const earlier = { files: new Map([[keyHash('a.txt'), old]]) };
		expect(diff(earlier, [spelled])).toEqual([]);
		const next = advance(earlier, [spelled], []);
		expect(diff(next, [file('a.txt', { content_type: 'text/plain' })])).toEqual([]);
	});

	it('a file whose listing spells the fields as the spec does keeps the fingerprint earlier releases saved', () => {
		const text = [listed.size, listed.last_modified, listed.content_type, listed.visibility].map(String).join('\n');
		expect(fingerprint(listed)).toBe(createHash('sha256').update(text, 'utf8').digest().readUInt32BE(0));
	});
});

describe('records of files out of the watched scope (Emit Existing Files)', () => {
	const scopeA = scopeOf({ bucket: 'b', region: 'r', prefix: '', recursive: true, filter: '', keepKeys: false });
	const files = [file('a.pdf'), file('b.txt'), file('c.txt')];

	it('a narrowed scope sets the others aside, and widening back takes them again, changed ones as updated', () => {
		const narrowed = recordsStillListed(stateOf(files, false), [file('a.pdf')], false, true);
		expect([...narrowed.files.keys()]).toEqual([keyHash('a.pdf')]);
		expect([...narrowed.aside!.keys()].sort()).toEqual([keyHash('b.txt'), keyHash('c.txt')].sort());
		const saved = decodeState(JSON.parse(JSON.stringify(encodeState(narrowed, scopeA))), scopeA)!;
		const now = [file('a.pdf'), file('b.txt'), file('c.txt', { size: 99 }), file('d.txt')];
		const widened = recordsStillListed(saved, now, false, true);
		expect(widened.aside).toEqual(new Map());
		expect(diff(widened, now).map((c) => [c.event, c.key])).toEqual([
			['updated', 'c.txt'],
			['created', 'd.txt'],
		]);
	});

	it('a poll keeps them, except a file recorded in scope again', () => {
		const narrowed = recordsStillListed(stateOf(files, false), [file('a.pdf')], false, true);
		const next = advance(narrowed, [file('a.pdf'), file('b.txt')], []);
		expect([...keptAside(narrowed, next)!.keys()]).toEqual([keyHash('c.txt')]);
		expect(keptAside(stateOf(files, false), next)).toBeUndefined();
	});

	it(`at most ${OUT_OF_SCOPE_RECORDS} are kept, those just set aside first`, () => {
		const many = new Map<string, number>();
		for (let i = 0; i < OUT_OF_SCOPE_RECORDS; i++) many.set(keyHash(`old-${i}`), i);
		const saved = { ...stateOf([file('x.txt'), file('y.txt')], false), aside: many };
		const aside = setAside(saved, new Set([keyHash('y.txt')]));
		expect(aside.size).toBe(OUT_OF_SCOPE_RECORDS);
		expect([...aside.keys()][0]).toBe(keyHash('x.txt'));
		expect(aside.has(keyHash(`old-${OUT_OF_SCOPE_RECORDS - 1}`))).toBe(false);
	});

	it('they are covered by the check: altered or removed, the state is lost', () => {
		const narrowed = recordsStillListed(stateOf(files, false), [file('a.pdf')], false, true);
		const stored = JSON.parse(JSON.stringify(encodeState(narrowed, scopeA)));
		const scopes = { scope: scopeA, carried: '0000000000000000', place: placeOf('b', 'r') };
		expect(readState(stored, scopes, false).state?.aside?.size).toBe(2);
		const aside = String(stored.aside);
		const altered = { ...stored, aside: (aside[0] === 'A' ? 'B' : 'A') + aside.slice(1) };
		const { aside: _aside, ...removed } = stored;
		for (const damaged of [altered, removed])
			expect(readState(damaged, scopes, false)).toEqual({ lost: expect.any(String) });
	});
});
