/**
 * Counterexamples the adversary found, as explicit schedules (independent of how seeds are drawn):
 * each becomes a named test (counterexamples.test.ts).
 */
import { FOREVER_MS, type CdnPolicy } from './cdn';
import type { Schedule, Scenario } from './schedule';

const quietCdn: CdnPolicy = {
	skewMs: 0,
	lastModified: 'file',
	age: false,
	xCache: false,
	etag: 'none',
	keepAfterPurgeMs: 0,
	proxyPage: { purge: 0, exists: 0, head: 0 },
	pageStatus: 404,
};

const plain: Omit<Scenario, 'operation' | 'items' | 'setup'> = {
	version: 3,
	replace: false,
	dryRun: false,
	includeSubfolders: true,
};

function schedule(
	seed: number,
	scenario: Scenario,
	cdn: Partial<CdnPolicy> = {},
	triggers: Schedule['triggers'] = [],
): Schedule {
	return { seed, storageSkewMs: 0, scenario, cdn: { ...quietCdn, ...cdn }, triggers };
}

/** Two version-3 Upload items with one key and Refuse Existing File on. */
export const twoUploadsOneKeyRefusing = schedule(9001, {
	...plain,
	operation: 'upload',
	items: [['dst'], ['dst']],
	setup: [],
});

/** Move of a public source the CDN kept, rewritten with the same size in the same second; the CDN keeps the old one after the purge. */
export const moveSameSecondRewriteBehindKeepingCdn = schedule(
	9002,
	{
		...plain,
		version: 2,
		operation: 'move',
		items: [['src1', 'dst']],
		setup: [{ role: 'src1', visibility: 'public', viewed: true, rewritten: 'sameSecond' }],
	},
	{ xCache: true, keepAfterPurgeMs: FOREVER_MS },
);

/** Another writer stores a same-size file at a Copy's destination between its upload and its check; MD5 ETags. */
export const otherWriterAtDestinationBeforeCheck = schedule(
	9003,
	{
		...plain,
		version: 2,
		operation: 'copy',
		items: [['src1', 'dst']],
		setup: [{ role: 'src1', visibility: 'public', viewed: false }],
	},
	{ etag: 'md5' },
	[{ op: 'list', nth: 2, phase: 'before', action: 'rewriteSame', role: 'dst' }],
);

/** Items copying onto one public destination in turn; the CDN keeps the first copy after the purge (MD5 ETags). */
export const checkAgainstKeptAnswerOfDestination = schedule(
	9004,
	{
		...plain,
		operation: 'copy',
		replace: true,
		items: [
			['src1', 'dst'],
			['src2', 'dst'],
		],
		setup: [
			{ role: 'src1', visibility: 'public', viewed: false },
			{ role: 'src2', visibility: 'public', viewed: false },
		],
	},
	{ etag: 'md5', age: true, xCache: true, keepAfterPurgeMs: FOREVER_MS },
);

/** Copy of a public source rewritten two seconds after the CDN kept it; the CDN keeps it after the purge, undated. */
export const copyOfSourceKeptUndated = schedule(
	9005,
	{
		...plain,
		version: 2,
		operation: 'copy',
		items: [['src1', 'dst']],
		setup: [{ role: 'src1', visibility: 'public', viewed: true, rewritten: 'later' }],
	},
	{ lastModified: 'none', xCache: true, keepAfterPurgeMs: FOREVER_MS },
);

/** Move of a public source rewritten after the CDN kept it; the CDN keeps it after the purge and says nothing of it (no Age, X-Cache or Last-Modified). */
export const moveBehindSilentlyKeepingCdn = schedule(
	9006,
	{
		...plain,
		version: 2,
		operation: 'move',
		items: [['src1', 'dst']],
		setup: [{ role: 'src1', visibility: 'public', viewed: true, rewritten: 'later' }],
	},
	{ lastModified: 'none', keepAfterPurgeMs: FOREVER_MS, silentAfterPurge: true },
);

/** The same for a Copy. */
export const copyBehindSilentlyKeepingCdn = schedule(
	9007,
	{
		...plain,
		version: 2,
		operation: 'copy',
		items: [['src1', 'dst']],
		setup: [{ role: 'src1', visibility: 'public', viewed: true, rewritten: 'later' }],
	},
	{ lastModified: 'none', keepAfterPurgeMs: FOREVER_MS, silentAfterPurge: true },
);

/** Move behind a CDN about 3 s ahead of the storage that keeps the old version through the purge, with Age and X-Cache. */
export const moveKeptAnswerAgedInWholeSeconds = schedule(
	9008,
	{
		...plain,
		version: 2,
		operation: 'move',
		items: [['src1', 'dst']],
		setup: [{ role: 'src1', visibility: 'public', viewed: true, rewritten: 'sameSecond', lateInSecond: true }],
	},
	{ skewMs: 2990, lastModified: 'none', age: true, xCache: true, keepAfterPurgeMs: FOREVER_MS },
);

/** The storage keeps a Copy's upload short; before the check another writer stores a file of that short size in its second. */
export const otherWriterAtShortCopysSize = schedule(
	9009,
	{
		...plain,
		version: 2,
		operation: 'copy',
		replace: true,
		items: [['src1', 'dst']],
		setup: [{ role: 'src1', visibility: 'public', viewed: false }],
	},
	{},
	[
		{ op: 'upload', nth: 1, phase: 'after', action: 'shortStore', role: 'dst' },
		{ op: 'purge', nth: 2, phase: 'before', action: 'rewriteSame', role: 'dst' },
	],
);

/** Moves of a source written as the run starts, rewritten with the same size right after a read, behind a CDN 2.5–2.9 s ahead. */
export const movesOfJustWrittenSourcesBehindCdnAhead: Schedule[] = [2500, 2700, 2900, 2600, 2800, 2900].map(
	(skewMs, i) =>
		schedule(
			9100 + i,
			{
				...plain,
				version: 2,
				operation: 'move',
				items: [['src1', 'dst']],
				setup: [{ role: 'src1', visibility: 'public', viewed: false, fresh: true }],
			},
			{ skewMs, lastModified: 'none' },
			[{ op: 'cdn', nth: 1 + (i % 2), phase: 'after', action: 'rewriteSame', role: 'src1' }],
		),
);

/**
 * Moves of a source written as the run starts (public and private), rewritten with the same size right
 * after a read, behind a CDN whose clock runs 6–15 s ahead of the storage's: its Date alone says "settled".
 */
export const movesOfJustWrittenSourcesBehindCdnFarAhead: Schedule[] = [6000, 10_000, 15_000, 10_000].map((skewMs, i) =>
	schedule(
		9300 + i,
		{
			...plain,
			version: 2,
			operation: 'move',
			items: [['src1', 'dst']],
			setup: [{ role: 'src1', visibility: i === 3 ? 'private' : 'public', viewed: false, fresh: true }],
		},
		{ skewMs, lastModified: 'none' },
		[{ op: 'cdn', nth: 1, phase: 'after', action: 'rewriteSame', role: 'src1' }],
	),
);

/**
 * Copy of a public source someone viewed (the CDN kept it) and rewrote in the same second, behind a CDN
 * 7.5 s ahead that keeps the old version through the purge, with Age and X-Cache: Date − Age alone says
 * it was fetched well after the listed second (long-run seed 575).
 */
export const copyOfKeptSourceBehindCdnFarAhead = schedule(
	9400,
	{
		...plain,
		version: 3,
		operation: 'copy',
		replace: true,
		items: [['src1', 'dst']],
		setup: [{ role: 'src1', visibility: 'public', viewed: true, rewritten: 'sameSecond' }],
	},
	{ skewMs: 7500, lastModified: 'none', age: true, xCache: true, etag: 'md5', keepAfterPurgeMs: FOREVER_MS },
);

/** Move and Copy of a source the CDN kept, rewritten since, when a proxy answers every purge with its 404 page. */
export const purgesAnsweredByProxyPage: Schedule[] = (['move', 'copy'] as const).map((operation, i) =>
	schedule(
		9200 + i,
		{
			...plain,
			version: 2,
			operation,
			items: [['src1', 'dst']],
			setup: [{ role: 'src1', visibility: 'public', viewed: true, rewritten: 'later' }],
		},
		{ lastModified: 'none', keepAfterPurgeMs: FOREVER_MS, proxyPage: { purge: 1, exists: 0, head: 0 } },
	),
);

/**
 * Folder → Move of a source whose destination is there with other bytes, when a proxy answers the signed-URL call of
 * the source with its own 404 page: the page is not the API's "not found", so the source is not gone.
 */
export const folderMoveSourceLinkAnsweredByProxyPage = schedule(
	9300,
	{
		...plain,
		version: 2,
		operation: 'folderMove',
		items: [],
		setup: [
			{ role: 'fa', visibility: 'public', viewed: false },
			{ role: 'ta', visibility: 'public', viewed: false },
		],
	},
	{ pageForKeys: ['from/a.txt'] },
);

/** Folder → Move of a source another writer deletes after the listing, its destination there with other bytes. */
export const folderMoveSourceDeletedByOtherWriter = schedule(
	9301,
	{
		...plain,
		version: 2,
		operation: 'folderMove',
		items: [],
		setup: [
			{ role: 'fa', visibility: 'public', viewed: false },
			{ role: 'ta', visibility: 'public', viewed: false },
		],
	},
	{},
	[{ op: 'signedUrl', nth: 1, phase: 'after', action: 'delete', role: 'fa' }],
);
