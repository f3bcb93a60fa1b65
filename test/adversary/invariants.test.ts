/**
 * The invariant checker on hand-made histories: it must flag what the adversary looks for, and
 * must not hold against the node what the API cannot prevent (another writer acting after the
 * node last looked at the key).
 */
import type { HistoryEvent } from '../emulator/history';
import { FOREVER_MS } from './cdn';
import { checkInvariants } from './invariants';
import type { NodeRequest, Outcome, Role, Scenario } from './schedule';

const keys = Object.fromEntries(
	(['src1', 'src2', 'src3', 'dst', 'dirA', 'dirB', 'dirSub', 'outside', 'dirNew'] as Role[]).map((role) => [
		role,
		`t/${role}`,
	]),
) as Record<Role, string>;

let seq = 0;
const put = (key: string, writer: string, bytes: string, at = ++seq): HistoryEvent => ({
	seq: at,
	kind: 'put',
	bucket: 'b',
	region: 'r',
	key,
	writer,
	at: 0,
	sha256: `sha-${bytes}`,
	md5: `md5-${bytes}`,
	size: bytes.length,
	lastModified: '2026-01-01T00:00:00.000Z',
});
const del = (key: string, writer: string, at = ++seq): HistoryEvent => ({
	seq: at,
	kind: 'delete',
	bucket: 'b',
	region: 'r',
	key,
	writer,
	at: 0,
});
const look = (op: string, subject: string, at = ++seq): NodeRequest => ({ seq: at, op, method: 'GET', subject });

function outcome(
	scenario: Partial<Scenario>,
	events: HistoryEvent[],
	requests: NodeRequest[],
	items: Outcome['items'],
): Outcome {
	const full: Scenario = {
		operation: 'move',
		version: 2,
		items: [['src1', 'dst']],
		replace: false,
		dryRun: false,
		includeSubfolders: true,
		setup: [],
		...scenario,
	};
	const cdn = {
		skewMs: 0,
		lastModified: 'file',
		age: false,
		xCache: false,
		etag: 'none',
		keepAfterPurgeMs: FOREVER_MS,
		proxyPage: { purge: 0, exists: 0, head: 0 },
		pageStatus: 404,
	} as const;
	return {
		schedule: { seed: 1, storageSkewMs: 0, scenario: full, cdn, triggers: [] },
		keys,
		startSeq: 2,
		endSeq: 1000,
		events,
		requests,
		items,
		log: [],
	};
}

const invariantsOf = (o: Outcome) => checkInvariants(o).map((v) => v.invariant);

beforeEach(() => (seq = 10));

it('a Move that copied the source it deleted breaks no invariant', () => {
	const events = [put(keys.src1, 'setup', 'A', 1)];
	const requests = [look('signedUrl', keys.dst), look('cdn', keys.src1), look('list', keys.src1)];
	events.push(put(keys.dst, 'client', 'A'));
	requests.push(look('list', keys.src1));
	events.push(del(keys.src1, 'client'));
	expect(invariantsOf(outcome({}, events, requests, [{ ok: true, json: { md5: 'md5-A' } }]))).toEqual([]);
});

it('a Move that deleted a newer source than it copied loses a version and reports an untrue success', () => {
	const events = [put(keys.src1, 'setup', 'A', 1), put(keys.src1, 'setup', 'B', 2)];
	const requests = [look('cdn', keys.src1), look('list', keys.src1)];
	events.push(put(keys.dst, 'client', 'A'));
	requests.push(look('list', keys.src1));
	events.push(del(keys.src1, 'client'));
	expect(invariantsOf(outcome({}, events, requests, [{ ok: true, json: { md5: 'md5-A' } }]))).toEqual([
		'no stored version is lost',
		'a reported success is true',
	]);
});

it('a source rewritten after the node last looked at it is not held against the Move (the API has no conditional delete)', () => {
	const events = [put(keys.src1, 'setup', 'A', 1)];
	const requests = [look('cdn', keys.src1)];
	events.push(put(keys.dst, 'client', 'A'));
	requests.push(look('list', keys.src1));
	events.push(put(keys.src1, 'other', 'B'), del(keys.src1, 'client'));
	expect(invariantsOf(outcome({}, events, requests, [{ ok: true, json: { md5: 'md5-A' } }]))).toEqual([]);
});

it('Replace off: replacing a file the existence check saw, or another item’s copy, is flagged', () => {
	const seen = outcome(
		{ operation: 'copy' },
		[put(keys.src1, 'setup', 'A', 1), put(keys.dst, 'setup', 'D', 2)],
		[look('signedUrl', keys.dst)],
		[],
	);
	seen.events.push(put(keys.dst, 'client', 'A'));
	expect(invariantsOf(seen)).toContain('Replace off / Refuse Existing File never replaces');
	const items = outcome(
		{ operation: 'upload', version: 3, items: [['dst'], ['dst']] },
		[],
		[look('signedUrl', keys.dst), look('signedUrl', keys.dst)],
		[],
	);
	items.events.push(put(keys.dst, 'client', 'X'), put(keys.dst, 'client', 'Y'));
	expect(invariantsOf(items)).toContain('Replace off / Refuse Existing File never replaces');
});

it('a file another writer stored at the destination before the check, deleted by the node, is flagged', () => {
	const events = [put(keys.src1, 'setup', 'A', 1)];
	const requests = [look('cdn', keys.src1)];
	events.push(put(keys.dst, 'client', 'A'), put(keys.dst, 'other', 'O'));
	requests.push(look('list', keys.dst), look('cdn', keys.dst));
	events.push(del(keys.dst, 'client'));
	expect(invariantsOf(outcome({ operation: 'copy' }, events, requests, [{ ok: false, json: {} }]))).toEqual([
		'no stored version is lost',
		'nothing the node did not write is deleted',
	]);
});

it('a good copy deleted as faulty, and a short copy left in place unreported, are flagged', () => {
	const good = outcome(
		{ operation: 'copy' },
		[put(keys.src1, 'setup', 'A', 1)],
		[look('cdn', keys.src1)],
		[{ ok: false, json: {} }],
	);
	good.events.push(put(keys.dst, 'client', 'A'), del(keys.dst, 'client'));
	expect(invariantsOf(good)).toEqual(['a good copy is never deleted']);
	const short = outcome(
		{ operation: 'copy' },
		[put(keys.src1, 'setup', 'AAAA', 1)],
		[look('cdn', keys.src1)],
		[{ ok: false, json: {} }],
	);
	short.events.push(put(keys.dst, 'client', 'AAAA'), put(keys.dst, 'client-short', 'A'));
	expect(invariantsOf(short)).toEqual(['a faulty copy is not kept unreported']);
	short.items = [{ ok: false, json: { error: 'The copy is faulty: the service stored 1 byte, 4 were sent' } }];
	expect(invariantsOf(short)).toEqual([]);
});

it('Folder → Delete: a file written into the folder after its listing stays; one it deletes anyway is flagged; Dry Run changes nothing', () => {
	const scenario: Partial<Scenario> = { operation: 'folderDelete', items: [] };
	const listing: NodeRequest = { ...look('list', 't/dir/'), listed: [keys.dirA] };
	const ok = outcome(scenario, [put(keys.dirA, 'setup', 'a', 1)], [listing], [{ ok: true, json: {} }]);
	ok.events.push(put(keys.dirNew, 'other', 'n'), del(keys.dirA, 'client'));
	expect(invariantsOf(ok)).toEqual([]);
	const wide = outcome(scenario, [...ok.events, del(keys.dirNew, 'client')], [listing], [{ ok: true, json: {} }]);
	expect(invariantsOf(wide)).toContain('Folder → Delete deletes only what it listed');
	const dry = outcome(
		{ ...scenario, dryRun: true },
		[put(keys.dirA, 'setup', 'a', 1), del(keys.dirA, 'client')],
		[listing],
		[],
	);
	expect(invariantsOf(dry)).toContain('Dry Run changes nothing');
});

it('a file another writer stores over the short copy, of its size and in its second, is indistinguishable from it: deleting it is not held against the node', () => {
	const events = [put(keys.src1, 'setup', 'AAAA', 1)];
	const requests = [look('cdn', keys.src1)];
	events.push(put(keys.dst, 'client', 'AAAA'), put(keys.dst, 'client-short', 'AAA'), put(keys.dst, 'other', 'OOO'));
	requests.push(look('list', keys.dst));
	events.push(del(keys.dst, 'client'));
	expect(invariantsOf(outcome({ operation: 'copy' }, events, requests, [{ ok: false, json: {} }]))).toEqual([]);
	const otherSize = outcome(
		{ operation: 'copy' },
		[...events.slice(0, 3), put(keys.dst, 'other', 'OOOO', events[3].seq), events[4]],
		requests,
		[],
	);
	expect(invariantsOf(otherSize)).toContain('nothing the node did not write is deleted');
});

it('a Move that deleted its source after a copy the storage kept short loses a version', () => {
	const events = [put(keys.src1, 'setup', 'A', 1)];
	const requests = [look('cdn', keys.src1), look('list', keys.src1)];
	events.push(put(keys.dst, 'client', 'A'), put(keys.dst, 'client-short', 'A-short'));
	requests.push(look('list', keys.src1));
	events.push(del(keys.src1, 'client'));
	const failed = [{ ok: false, json: { error: 'the copy is faulty' } }];
	expect(invariantsOf(outcome({}, events, requests, failed))).toContain('no stored version is lost');
});

describe('Folder → Copy and Move', () => {
	const [from, to] = ['t/from/a.txt', 't/to/a.txt'];
	const listing = (at = ++seq): NodeRequest => ({ ...look('list', 't/from/', at), listed: [from] });
	const item = (status: string, json: Record<string, unknown> = {}) => ({
		ok: status !== 'failed',
		json: { status, key: to, source: { key: from }, ...json },
	});

	it('"skipped" (moved before) for a source the run listed and another writer then deleted is not true; "gone" is', () => {
		const events = [put(from, 'setup', 'A', 1), put(to, 'setup', 'X', 2)];
		const requests = [listing(), look('signedUrl', to)];
		events.push(del(from, 'other'));
		const folderMove = { operation: 'folderMove' as const, items: [] };
		expect(invariantsOf(outcome(folderMove, events, requests, [item('skipped')]))).toEqual([
			"each file's status tells the truth",
		]);
		expect(invariantsOf(outcome(folderMove, events, requests, [item('gone')]))).toEqual([]);
	});

	it('a file the folder held the whole run without an item, or an item for a file outside it, is flagged', () => {
		const events = [put(from, 'setup', 'A', 1), put('t/from/sub/c.txt', 'setup', 'C', 2)];
		const requests = [listing()];
		const items = [
			{ ok: true, json: { status: 'copied', key: 't/to/sub/c.txt', source: { key: 't/from/sub/c.txt' } } },
		];
		const scenario = { operation: 'folderCopy' as const, items: [], includeSubfolders: false };
		expect(invariantsOf(outcome(scenario, events, requests, items))).toEqual([
			"only the folder's files are handled, each to its own path",
			'every file of the folder is handled',
		]);
	});

	it('run again after a stop, a Move that leaves its source and reports it moved is flagged', () => {
		const events = [put(from, 'setup', 'A', 1)];
		const requests = [listing(), look('cdn', from)];
		events.push(put(to, 'client', 'A'));
		const again = [item('moved', { md5: 'md5-A', destinationWasThere: true })];
		const o = outcome({ operation: 'folderMove', items: [] }, events, [...requests, listing(30)], again);
		o.runs = [
			{ startSeq: 2, endSeq: 20, items: [], stopped: true },
			{ startSeq: 25, endSeq: 1000, items: again, stopped: false },
		];
		expect(invariantsOf(o)).toEqual([
			"each file's status tells the truth",
			'run again with nothing else acting, every file is done',
		]);
	});
});

describe('a write while the run’s pool was paused by a 503 the adversary answered', () => {
	const pausedAround = (o: Outcome, from: number, to: number) => ({ ...o, pauses: [{ fromSeq: from, toSeq: to }] });

	it('a source rewritten after the last look, in the pause, then deleted by the Move, is a loss', () => {
		const events = [put(keys.src1, 'setup', 'A', 1)];
		const requests = [look('cdn', keys.src1)];
		events.push(put(keys.dst, 'client', 'A'));
		requests.push(look('list', keys.src1));
		events.push(put(keys.src1, 'other', 'B', 20), del(keys.src1, 'client', 30));
		const move = outcome({ version: 3 }, events, requests, [{ ok: true, json: { md5: 'md5-A' } }]);
		expect(invariantsOf(move)).toEqual([]);
		expect(invariantsOf(pausedAround(move, 19, 25))).toEqual(['no stored version is lost']);
	});

	it('Refuse Existing File: a file stored in the pause after the check, replaced by the upload, is flagged', () => {
		const events = [put(keys.dst, 'other', 'O', 20), put(keys.dst, 'client', 'X', 30)];
		const upload = outcome(
			{ operation: 'upload', version: 3, items: [['dst']] },
			events,
			[look('signedUrl', keys.dst)],
			[],
		);
		expect(invariantsOf(upload)).toEqual([]);
		expect(invariantsOf(pausedAround(upload, 19, 25))).toEqual([
			'no stored version is lost',
			'Replace off / Refuse Existing File never replaces',
		]);
	});
});

it('a source rewritten while the answer of the listing of it was held, then deleted by the Move, is a loss', () => {
	const events = [put(keys.src1, 'setup', 'A', 1)];
	const requests = [look('cdn', keys.src1)];
	events.push(put(keys.dst, 'client', 'A'));
	const held: NodeRequest = look('list', keys.src1);
	requests.push(held);
	events.push(put(keys.src1, 'other', 'B', held.seq + 5), del(keys.src1, 'client', held.seq + 20));
	const move = outcome({ version: 2 }, events, requests, [{ ok: true, json: { md5: 'md5-A' } }]);
	expect(invariantsOf(move)).toEqual([]);
	held.heldUntilSeq = held.seq + 10;
	expect(invariantsOf(move)).toEqual(['no stored version is lost']);
});

it('a Move whose copy another writer replaced, seen by its listing, with a same-size file of another content type loses the source', () => {
	const events = [put(keys.src1, 'setup', 'A', 1)];
	const requests = [look('cdn', keys.src1)];
	events.push({ ...put(keys.dst, 'client', 'A'), contentType: 'text/plain' });
	const other = { ...put(keys.dst, 'other', 'O'), contentType: 'image/png' };
	events.push(other);
	requests.push(look('list', keys.src1), look('list', keys.dst));
	events.push(del(keys.src1, 'client'));
	const move = outcome({}, events, requests, [{ ok: true, json: { md5: 'md5-A' } }]);
	expect(invariantsOf(move)).toEqual(['no stored version is lost']);
	// Of the copy's size, second, content type and visibility, the listing cannot tell it from the copy (spec §3.12).
	other.contentType = 'text/plain';
	expect(invariantsOf(move)).toEqual([]);
});

it('an Upload reported stored, whose bytes the storage kept short and said so, is flagged', () => {
	const events = [put(keys.dst, 'client', 'AAAA'), put(keys.dst, 'client-short', 'AAA')];
	const upload = outcome({ operation: 'upload', items: [['dst']] }, events, [look('signedUrl', keys.dst)], []);
	upload.inputs = ['md5-AAAA'];
	upload.items = [{ ok: true, json: {} }];
	expect(invariantsOf(upload)).toEqual(['a faulty copy is not kept unreported', 'a reported success is true']);
	upload.items = [
		{
			ok: false,
			json: { error: 'the service says it stored 3 bytes, but 4 were sent', description: 'its faulty write' },
		},
	];
	expect(invariantsOf(upload)).toEqual([]);
});
