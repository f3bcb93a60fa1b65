/**
 * Counterexamples the seeded adversary found (adversary.test.ts, longRun.ts) on earlier code, each as a named
 * case with an explicit schedule (cases.ts), independent of how seeds are drawn. Each failed before its fix.
 */
import { describe as described, runOne } from './explore';
import * as cases from './cases';
import type { Schedule } from './schedule';

async function holds(schedule: Schedule) {
	const { outcome, violations } = await runOne(schedule);
	expect(
		violations.length ? described({ seed: schedule.seed, schedule, violations, outcome }) : 'every invariant holds',
	).toBe('every invariant holds');
	return outcome;
}

it('two version-3 Upload items with one key and Refuse Existing File: the first is kept, the second refused', async () => {
	const outcome = await holds(cases.twoUploadsOneKeyRefusing);
	expect(outcome.items.map((item) => item.ok)).toEqual([true, false]);
});

it('Move of a public file rewritten with the same size in the same second, behind a CDN that keeps the old version after the purge, never loses the newest version', async () => {
	await holds(cases.moveSameSecondRewriteBehindKeepingCdn);
});

it("a same-size file another writer stores at a Copy's destination between the upload and the check (MD5 ETags) is not deleted", async () => {
	await holds(cases.otherWriterAtDestinationBeforeCheck);
});

it('a good copy is not deleted on the ETag of an older answer the CDN kept of the destination', async () => {
	await holds(cases.checkAgainstKeptAnswerOfDestination);
});

it('Copy never reports a version the CDN kept after the purge as the copy of the source', async () => {
	await holds(cases.copyOfSourceKeptUndated);
});

it('Move behind a CDN about 3 s ahead that keeps the old version through the purge (Age, X-Cache: HIT) never loses the newest version', async () => {
	await holds(cases.moveKeptAnswerAgedInWholeSeconds);
});

it("a file another writer stores at a Copy's destination in the copy's second, of the size the storage kept of the copy, is not deleted", async () => {
	const outcome = await holds(cases.otherWriterAtShortCopysSize);
	const atDestination = outcome.events.filter((event) => event.key === outcome.keys.dst);
	expect(atDestination.map((event) => `${event.kind} by ${event.writer}`)).toEqual([
		'put by client',
		'put by client-short',
		'put by other',
	]);
	expect(outcome.items[0].ok).toBe(false);
});

// Found by planting bugs (a settle margin 1 s shorter; a proxy's 404 page to the purge read as "nothing cached").
it('a Move of a source written moments ago, rewritten with the same size right after a read, behind a CDN clock up to 3 s ahead, never loses the newest version', async () => {
	for (const schedule of cases.movesOfJustWrittenSourcesBehindCdnAhead) await holds(schedule);
}, 120_000);

it("a Move of a source written moments ago, rewritten with the same size right after a read, behind a CDN clock 6–15 s ahead of the storage's, never loses the newest version", async () => {
	for (const schedule of cases.movesOfJustWrittenSourcesBehindCdnFarAhead) await holds(schedule);
}, 120_000);

it("Copy never reports as the source's copy a version the CDN kept, behind a CDN clock 7.5 s ahead of the storage's (Date − Age)", async () => {
	const outcome = await holds(cases.copyOfKeptSourceBehindCdnFarAhead);
	expect(outcome.items[0].ok).toBe(false);
});

it("a proxy's 404 page in answer to the purge of the source copies nothing the CDN kept", async () => {
	for (const schedule of cases.purgesAnsweredByProxyPage) {
		const outcome = await holds(schedule);
		expect(outcome.items[0].ok).toBe(false);
	}
});

it("Folder → Move never reports a file moved before when a proxy's 404 page answers the signed-URL call of its source: the source is there", async () => {
	const outcome = await holds(cases.folderMoveSourceLinkAnsweredByProxyPage);
	expect(outcome.items.map((item) => item.json.status)).toEqual(['kept']);
	expect(outcome.events.filter((event) => event.writer === 'client')).toEqual([]);
});

it('Folder → Move reports a source another writer deleted after its listing as gone, never as moved before', async () => {
	const outcome = await holds(cases.folderMoveSourceDeletedByOtherWriter);
	expect(outcome.items.map((item) => item.json.status)).toContain('gone');
	expect(outcome.items.map((item) => item.json.status)).not.toContain('skipped');
});
