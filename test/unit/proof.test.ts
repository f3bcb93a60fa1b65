import {
	CDN_CLOCK_MARGIN_MS,
	LISTING_SECOND_MS,
	copyChangedBeforeDelete,
	copyCheckDecision,
	existenceOf,
	fetchedNoEarlierThan,
	keptByCache,
	laterThanListed,
	undatedRead,
	purgeFailure,
	readBackDecision,
	sameVersion,
	sourceDeleteDecision,
	sourceReadDecision,
	staleAnswer,
	type CdnHeaders,
	type SourceRead,
} from '../../nodes/FileStorage/files/proof';

const record = { size: 10, last_modified: '2026-03-20T10:30:05Z' };

describe('staleAnswer: whether a CDN answer is of another version than the service records', () => {
	it('another size is another version', () => {
		expect(staleAnswer({ size: 9 }, record)).toBe("the CDN answered 9 bytes, the service's listing says 10 bytes");
	});

	it('a Last-Modified more than a second before the record is an older version', () => {
		expect(staleAnswer({ size: 10, lastModified: 'Fri, 20 Mar 2026 10:30:03 GMT' }, record)).toBe(
			"the CDN answered a version last modified 2026-03-20T10:30:03Z, the service's listing says 2026-03-20T10:30:05Z",
		);
	});

	it('a Last-Modified exactly one whole second before the record is an older version (S3-like: the same second)', () => {
		expect(staleAnswer({ size: 10, lastModified: 'Fri, 20 Mar 2026 10:30:04 GMT' }, record)).toBe(
			"the CDN answered a version last modified 2026-03-20T10:30:04Z, the service's listing says 2026-03-20T10:30:05Z",
		);
		// A listing with milliseconds: 999 ms after the answer's whole second is still that second.
		const withMs = { size: 10, last_modified: '2026-03-20T10:30:05.999Z' };
		expect(staleAnswer({ size: 10, lastModified: 'Fri, 20 Mar 2026 10:30:05 GMT' }, withMs)).toBeUndefined();
		expect(staleAnswer({ size: 10, lastModified: 'Fri, 20 Mar 2026 10:30:04 GMT' }, withMs)).toBeDefined();
	});

	it('the same second, a later date, or no date at all agree', () => {
		for (const lastModified of [
			'Fri, 20 Mar 2026 10:30:05 GMT',
			'Fri, 20 Mar 2026 11:00:00 GMT',
			undefined,
			'not a date',
		]) {
			expect(staleAnswer({ size: 10, lastModified }, record)).toBeUndefined();
		}
		expect(staleAnswer({}, { size: null, last_modified: null })).toBeUndefined();
	});
});

describe('laterThanListed: an answer dated after the version a listing read before it recorded', () => {
	it('a Last-Modified in a later second than the listed one is a version stored since', () => {
		expect(laterThanListed('Fri, 20 Mar 2026 10:30:06 GMT', record)).toBe(
			'the CDN answered a version last modified 2026-03-20T10:30:06Z, after the listed one (2026-03-20T10:30:05Z)',
		);
		expect(
			laterThanListed('Fri, 20 Mar 2026 10:30:06 GMT', { size: 10, last_modified: '2026-03-20T10:30:05.900Z' }),
		).toBeDefined();
	});

	it('the listed second (with or without milliseconds), an earlier one, or no date are not later', () => {
		for (const lastModified of [
			'Fri, 20 Mar 2026 10:30:05 GMT',
			'Fri, 20 Mar 2026 10:30:01 GMT',
			undefined,
			'not a date',
		]) {
			expect(laterThanListed(lastModified, record)).toBeUndefined();
		}
		expect(
			laterThanListed('Fri, 20 Mar 2026 10:30:05 GMT', { size: 10, last_modified: '2026-03-20T10:30:05.900Z' }),
		).toBeUndefined();
		expect(laterThanListed('Fri, 20 Mar 2026 10:30:06 GMT', { size: 10, last_modified: null })).toBeUndefined();
	});
});

describe('undatedRead: an answer that cannot be tied to the record’s file (one CDN location per key)', () => {
	it('an answer with no readable Last-Modified, or a record with no time, cannot; one of any readable date can be compared', () => {
		for (const lastModified of [undefined, '', 'not a date']) {
			expect(undatedRead(lastModified, record)).toMatch(
				/^the answer names no Last-Modified, so it cannot be told from another bucket's file at this key .*let Last-Modified through the CDN or proxy, or keep one key in one bucket of the account$/,
			);
		}
		expect(undatedRead('Fri, 20 Mar 2026 10:30:05 GMT', { size: 10, last_modified: null })).toBe(
			"the service's listing gives no time for the file",
		);
		expect(undatedRead('Fri, 20 Mar 2026 10:30:05 GMT', record)).toBeUndefined();
		expect(undatedRead('Fri, 20 Mar 2026 10:29:00 GMT', record)).toBeUndefined();
	});
});

describe('sameVersion', () => {
	it('compares size and the time of last_modified, however it is spelled', () => {
		expect(sameVersion(record, { size: 10, last_modified: '2026-03-20T10:30:05.000Z' })).toBe(true);
		expect(sameVersion(record, { size: 11, last_modified: record.last_modified })).toBe(false);
		expect(sameVersion(record, { size: 10, last_modified: '2026-03-20T10:30:06Z' })).toBe(false);
	});
	it('another content type or visibility in the same size and second is another version', () => {
		const typed = { ...record, content_type: 'text/plain', visibility: 'private' };
		expect(sameVersion(typed, { ...typed })).toBe(true);
		expect(sameVersion(typed, { ...typed, content_type: 'application/x-other' })).toBe(false);
		expect(sameVersion(typed, { ...typed, visibility: 'public' })).toBe(false);
	});
});

const T = '2026-03-20T10:30:05Z';
const at = (seconds: number) => new Date(Date.parse(T) + seconds * 1000).toUTCString();
const listed = { size: 10, last_modified: T };
/** An answer dated, unless its headers say otherwise (`lastModified: undefined`), in the listed second, as S3 dates it. */
const move = (headers: CdnHeaders, extra: Partial<SourceRead> = {}) =>
	sourceReadDecision({
		verb: 'Move',
		isPublic: true,
		size: 10,
		headers: { lastModified: at(0), ...headers },
		record: listed,
		...extra,
	});
const undated = { lastModified: undefined };

describe('keptByCache: an answer a cache marks as kept', () => {
	it.each([
		[{ age: '1' }, 'Age: 1'],
		[{ age: '5, 7' }, 'Age: 5, 7'],
		[{ xCache: 'HIT' }, 'X-Cache: HIT'],
		[{ xCache: 'TCP_HIT' }, 'X-Cache: TCP_HIT'],
		[{ xCache: 'Hit from cloudfront' }, 'X-Cache: Hit from cloudfront'],
		[{ age: '30', xCache: 'HIT' }, 'Age: 30, X-Cache: HIT'],
		[{ xCache: 'STALE' }, 'X-Cache: STALE'],
		[{ cacheStatus: ['cf-cache-status: HIT'] }, 'cf-cache-status: HIT'],
		[{ cacheStatus: ['cf-cache-status: REVALIDATED'] }, 'cf-cache-status: REVALIDATED'],
		[{ cacheStatus: ['cf-cache-status: UPDATING'] }, 'cf-cache-status: UPDATING'],
		[{ cacheStatus: ['cdn-cache: HIT'] }, 'cdn-cache: HIT'],
		[{ cacheStatus: ['cache-status: ExampleCache; hit; ttl=30'] }, 'cache-status: ExampleCache; hit; ttl=30'],
		// A MISS with an Age over 0 contradicts itself; a hit with Age: 0 is a hit: both stay kept.
		[{ age: '5', xCache: 'MISS' }, 'Age: 5'],
		[{ age: '0, 5', xCache: 'MISS' }, 'Age: 0, 5'],
		[{ age: '0', xCache: 'HIT' }, 'Age: 0, X-Cache: HIT'],
		[{ age: '0', xCache: 'MISS, HIT' }, 'Age: 0, X-Cache: MISS, HIT'],
		[{ age: '0', xCache: 'MISS', xVarnish: '32770 32768' }, 'Age: 0, X-Varnish: 32770 32768'],
		[{ age: '0', xCache: 'MISS', cacheStatus: ['cf-cache-status: HIT'] }, 'Age: 0, cf-cache-status: HIT'],
		[{ age: '0', xCache: 'EXPIRED' }, 'Age: 0'],
		[{ age: '0', cacheStatus: ['cache-status: ExampleCache; fwd=uri-miss'] }, 'Age: 0'],
		[{ age: '0', cacheStatus: ['cache-status: Edge; fwd=miss; fwd-status=200, Shield; fwd=bypass'] }, 'Age: 0'],
		// Only caches send Age: one that cannot be read (empty, a word, negative) is a cache's all the same.
		[{ age: '' }, 'Age: '],
		[{ age: 'soon' }, 'Age: soon'],
		[{ age: '-1', xCache: 'MISS' }, 'Age: -1'],
	])('%j is kept (%s)', (headers, words) => {
		expect(keptByCache(headers)).toBe(words);
	});

	it('Age: 0 is kept too (less than a second): RFC 9111 has a cache send Age with all it serves', () => {
		expect(keptByCache({ age: '0' })).toBe('Age: 0');
	});

	it.each([
		[{}],
		[{ xCache: 'MISS' }],
		[{ cacheStatus: ['cf-cache-status: MISS', 'cdn-cache: EXPIRED'] }],
		[{ cacheStatus: ['cache-status: ExampleCache; fwd=uri-miss'] }],
		// Age: 0 with an explicit MISS: fetched from the origin for this request (CDNs and Varnish stamp Age: 0 on it).
		[{ age: '0', xCache: 'MISS' }],
		[{ age: '0', xCache: 'TCP_MISS' }],
		[{ age: '0', xCache: 'Miss from cloudfront' }],
		[{ age: '0', xCache: 'MISS, MISS' }],
		[{ age: '0', cacheStatus: ['cf-cache-status: MISS'] }],
		[{ age: '0', cacheStatus: ['cache-status: ExampleCache; fwd=uri-miss; fwd-status=200'] }],
		[{ age: '0', cacheStatus: ['cache-status: ExampleCache; fwd=vary-miss; fwd-status=200; stored'] }],
		[{ age: '0', cacheStatus: ['cache-status: Edge; fwd=miss; fwd-status=200, Shield; fwd=uri-miss; fwd-status=200'] }],
	])('%j is not marked', (headers) => {
		expect(keptByCache(headers)).toBeUndefined();
	});
});

describe('sourceReadDecision: what Copy and Move do with the answer read for the source', () => {
	it('another size, or a Last-Modified older than the listing: another version, refused (Copy too)', () => {
		expect(move({ date: at(10) }, { size: 9 })).toMatchObject({ action: 'refuse', proof: 'other-version' });
		const older = { date: at(10), lastModified: at(-5) };
		expect(move(older, { verb: 'Copy' })).toMatchObject({ action: 'refuse', proof: 'other-version' });
	});

	it('Copy takes an answer no cache marks, dated in the listed second, at once, Date or not (read from the origin)', () => {
		expect(move({}, { verb: 'Copy' })).toEqual({ action: 'copy' });
		expect(move({ date: at(0), lastModified: at(0) }, { verb: 'Copy' })).toEqual({ action: 'copy' });
		expect(move({ date: at(0) }, { verb: 'Download', isPublic: false })).toEqual({ action: 'copy' });
	});

	it('Copy, Move and Download refuse an answer that names no Last-Modified: it may be another bucket’s file at the key', () => {
		// Each formerly taken undated (Copy at once, Move once its Date was settled, Download as Copy): now refused.
		const reads: Array<[CdnHeaders, Partial<SourceRead>]> = [
			[{ ...undated }, { verb: 'Copy' }],
			[
				{ ...undated, date: at(0) },
				{ verb: 'Copy', isPublic: false },
			],
			[{ ...undated, date: at(60) }, { verb: 'Move' }],
			[
				{ ...undated, date: at(60) },
				{ verb: 'Move', isPublic: false },
			],
			[{ ...undated, date: at(60), xCache: 'MISS' }, { verb: 'Move' }],
			[{ ...undated, date: at(60) }, { verb: 'Download' }],
			[{ ...undated }, { verb: 'Download', isPublic: false }],
			[{ lastModified: 'not a date', date: at(60) }, { verb: 'Copy' }],
		];
		for (const [headers, extra] of reads) {
			expect(move(headers, extra)).toEqual({
				action: 'refuse',
				proof: 'unproven',
				why: expect.stringMatching(/names no Last-Modified.*keep one key in one bucket/),
			});
		}
		// Another size is still said as such (shown to be another version), dated or not.
		expect(move({ ...undated }, { verb: 'Copy', size: 9 })).toMatchObject({ proof: 'other-version' });
		// A record with no time cannot be compared either.
		const timeless = { record: { size: 10, last_modified: null } };
		expect(move({ date: at(60) }, { verb: 'Copy', ...timeless })).toMatchObject({
			action: 'refuse',
			proof: 'unproven',
		});
	});

	it('Copy and Move refuse an answer dated in a later second than the record listed after it (another bucket’s file)', () => {
		for (const verb of ['Copy', 'Move'] as const) {
			for (const isPublic of [true, false]) {
				const later = move({ date: at(60), lastModified: at(30) }, { verb, isPublic });
				expect(later).toMatchObject({ action: 'refuse', proof: 'unproven' });
				expect(move({ date: at(60), lastModified: at(1) }, { verb, isPublic })).toMatchObject({ action: 'refuse' });
			}
		}
		// Download judges by the record listed after its read too (File → Download): another bucket's file at the key.
		expect(move({ date: at(60), lastModified: at(30) }, { verb: 'Download' })).toMatchObject({ action: 'refuse' });
		expect(move({ date: at(60), lastModified: at(1) }, { verb: 'Download', isPublic: false })).toMatchObject({
			action: 'refuse',
			proof: 'unproven',
		});
	});

	it('Copy refuses an answer a cache marks as kept, however long after the listed second its Date − Age is', () => {
		expect(move({ age: '5', xCache: 'HIT' }, { verb: 'Copy' })).toMatchObject({ action: 'refuse', proof: 'unproven' });
		// A kept answer says so first, dated or not, naming the header, and says what to do.
		expect(move({ ...undated, age: '5', xCache: 'HIT' }, { verb: 'Copy' })).toMatchObject({
			why: expect.stringMatching(
				/^a cache marked the CDN's answer as kept \(Age: 5, X-Cache: HIT\), so its bytes cannot be shown to be the version the service stores.*serves the file fresh.*Purge CDN Cache.*bypass that cache/,
			),
		});
		expect(move({ ...undated, date: at(60), age: '10' }, { verb: 'Copy' })).toMatchObject({ action: 'refuse' });
		expect(move({ date: at(10), xCache: 'HIT' }, { verb: 'Copy' })).toMatchObject({ action: 'refuse' });
		// Date − (Age + 1 s) is 49 s after the listed second: once taken as proof, now refused (Age may count from a 304).
		expect(move({ date: at(60), age: '10' }, { verb: 'Copy' })).toMatchObject({ action: 'refuse', proof: 'unproven' });
		// The same answer no cache marks is copied.
		expect(move({ date: at(60) }, { verb: 'Copy' })).toEqual({ action: 'copy' });
	});

	it('Move: an answer a cache kept is never proof, whatever its Last-Modified says', () => {
		for (const headers of [
			{ date: at(10), lastModified: at(0), age: '9', xCache: 'HIT' },
			{ date: at(10), lastModified: at(0), xCache: 'HIT', cacheControl: 'public, max-age=60' },
			{ date: at(10), lastModified: at(0), age: '7' },
		]) {
			expect(move(headers)).toMatchObject({ action: 'refuse', proof: 'unproven' });
		}
		// The same for a private source read through its signed link.
		expect(move({ date: at(10), xCache: 'HIT' }, { isPublic: false })).toMatchObject({ action: 'refuse' });
	});

	it('Move: a kept answer is no proof even when Date − Age is long after the listed second (Age counts from a revalidation)', () => {
		for (const headers of [
			{ date: at(60), age: '10', xCache: 'HIT' },
			{ date: at(600), age: '1', xCache: 'HIT' },
			{ date: at(60), age: '57', xCache: 'HIT' },
			{ date: at(60), xCache: 'HIT' },
		]) {
			expect(move(headers)).toEqual({
				action: 'refuse',
				proof: 'unproven',
				why: expect.stringMatching(/^a cache marked the CDN's answer as kept \(.*X-Cache: HIT\)/),
			});
		}
		// The same answer no cache marks is moved.
		expect(move({ date: at(60) })).toEqual({ action: 'copy' });
	});

	it('Move: max-age never bounds a kept answer with no Age (a CDN keeps it for its own time, or serves it stale)', () => {
		// A CDN keeps an answer for its own time to live, or past it as stale: without an Age nothing says since when.
		for (const headers of [
			{ date: at(70), xCache: 'HIT', cacheControl: 'public, max-age=60' },
			{ date: at(600), cacheStatus: ['cf-cache-status: HIT'], cacheControl: 's-maxage=1' },
			{ date: at(70), cacheStatus: ['cf-cache-status: STALE'], cacheControl: 'public, max-age=60' },
			{ date: at(70), cacheStatus: ['cdn-cache: UPDATING'], cacheControl: 'max-age=60' },
			{ date: at(70), cacheStatus: ['cache-status: ExampleCDN; hit; stale'], cacheControl: 'max-age=60' },
			{ date: at(70), xCache: 'HIT', cacheControl: 'max-age=60, stale-while-revalidate=600' },
			{ date: at(70), xCache: 'HIT', cacheControl: 'max-age=60, stale-if-error=86400' },
		]) {
			expect(move(headers)).toMatchObject({ action: 'refuse', proof: 'unproven' });
			expect(move(headers, { verb: 'Copy' })).toMatchObject({ action: 'refuse', proof: 'unproven' });
		}
		// An Age does not help: it counts from the cache's last check with the origin, not from its bytes.
		expect(move({ date: at(70), age: '67', cacheStatus: ['cf-cache-status: STALE'] })).toMatchObject({
			action: 'refuse',
		});
		expect(move({ date: at(90), age: '61', cacheStatus: ['cf-cache-status: STALE'] })).toMatchObject({
			action: 'refuse',
			proof: 'unproven',
		});
	});

	it('a kept answer is refused on either side of listed + 4 s by Date − Age: the Age is of the cache, not of the bytes', () => {
		for (const verb of ['Copy', 'Move', 'Download'] as const) {
			expect(move({ date: at(17), age: '13', xCache: 'HIT' }, { verb })).toMatchObject({ proof: 'unproven' });
			expect(move({ date: at(18), age: '13', xCache: 'HIT' }, { verb })).toMatchObject({ proof: 'unproven' });
			expect(move({ date: at(18), age: '13', xCache: 'HIT' }, { verb, isPublic: false })).toMatchObject({
				action: 'refuse',
			});
		}
	});

	it('Move: an answer with no Date is unproven (the host clock is never used)', () => {
		expect(move({ lastModified: at(0) })).toMatchObject({ action: 'refuse', proof: 'unproven' });
		expect(move({})).toMatchObject({ why: expect.stringMatching(/no Date/) });
	});

	it('Move: the settle wait is timed by the answer’s Date, with 1 s for the listing and the 3 s CDN clock margin', () => {
		expect(LISTING_SECOND_MS + CDN_CLOCK_MARGIN_MS).toBe(4000);
		// The n8n host's clock (years after T) plays no part: only Date.
		expect(move({ date: at(0) })).toEqual({ action: 'read-again', afterMs: 4000 });
		expect(move({ date: at(1) })).toEqual({ action: 'read-again', afterMs: 3000 });
		expect(move({ date: at(3) })).toEqual({ action: 'read-again', afterMs: 1000 });
		expect(move({ date: at(4) })).toEqual({ action: 'copy' });
		expect(move({ date: at(-3) })).toEqual({ action: 'read-again', afterMs: 7000 });
	});

	it('Move: a Last-Modified other than the listing’s second (a CDN’s own stamp, another bucket’s file) is unproven', () => {
		expect(move({ date: at(60), lastModified: at(30) })).toMatchObject({ action: 'refuse', proof: 'unproven' });
		expect(move({ date: at(60), lastModified: at(0) })).toEqual({ action: 'copy' });
		expect(move({ date: at(60), lastModified: at(30) }, { isPublic: false })).toMatchObject({ action: 'refuse' });
		expect(move({ date: at(60), lastModified: at(0) }, { isPublic: false })).toEqual({ action: 'copy' });
	});

	it('Move: a listing without a time is unproven', () => {
		expect(move({ date: at(60) }, { record: { size: 10, last_modified: null } })).toMatchObject({ action: 'refuse' });
	});
});

describe('an answer a cache revalidated gives no fetch time: never proof of the version, whatever its Age and Date', () => {
	const marks: CdnHeaders[] = [
		{ cacheStatus: ['cf-cache-status: REVALIDATED'] },
		{ xCache: 'RefreshHit from cloudfront' },
		{ xCache: 'TCP_REFRESH_HIT' },
		{ xCache: 'TCP_REFRESH_MISS' },
		{ cacheStatus: ['x-cache-status: REVALIDATED'] },
		{ cacheStatus: ['cache-status: ExampleCDN; fwd=stale; fwd-status=304'] },
		{ cacheStatus: ['cache-status: ExampleCDN; fwd=miss; fwd-status=304'] },
	];

	it.each(marks)('%j: fetchedNoEarlierThan is undefined, and Copy, Move and Download refuse it', (mark) => {
		// Age: 0 and a Date a minute past the listed second: by Date − Age it would have been fetched long after.
		const headers = { date: at(60), age: '0', ...mark };
		expect(fetchedNoEarlierThan(headers)).toBeUndefined();
		for (const verb of ['Copy', 'Move', 'Download'] as const) {
			expect(move(headers, { verb })).toEqual({
				action: 'refuse',
				proof: 'unproven',
				why: expect.stringMatching(
					/^a cache revalidated its copy of the CDN's answer \(.+\), so its bytes cannot be shown to be the version the service stores/,
				),
			});
			// A private file's read after a purge is judged the same way.
			expect(move(headers, { verb, isPublic: false })).toMatchObject({ action: 'refuse', proof: 'unproven' });
		}
	});

	it("Move's read-back of its copy keeps the source on a revalidated answer, the MD5 sent or not", () => {
		const sent = { bytes: 10, md5: 'a'.repeat(32) };
		for (const mark of marks) {
			const answer = { size: 10, headers: { date: at(60), age: '0', ...mark }, digest: sent };
			expect(readBackDecision({ sent, record: listed, answer })).toEqual({
				action: 'keep',
				why: expect.stringMatching(/^read back through its link, a cache revalidated its copy/),
			});
		}
	});

	it('a redirect a cache revalidated leaves the answer undated', () => {
		const headers = {
			date: at(60),
			lastModified: at(0),
			redirects: [{ date: at(60), xCache: 'RefreshHit from cloudfront' }],
		};
		expect(fetchedNoEarlierThan(headers)).toBeUndefined();
		expect(move(headers)).toMatchObject({ action: 'refuse', why: expect.stringMatching(/hop 1.*RefreshHit/) });
	});

	it('Age: 0 with an explicit MISS is unmarked (fetched from the origin for this request): the unmarked rules apply', () => {
		for (const headers of [
			{ date: at(60), age: '0', xCache: 'MISS' },
			{ date: at(60), age: '0', cacheStatus: ['cache-status: ExampleCDN; fwd=uri-miss; fwd-status=200'] },
			{ date: at(60), xCache: 'MISS' },
		]) {
			expect(fetchedNoEarlierThan(headers)).toBe(Date.parse(T) + 60_000);
			for (const verb of ['Copy', 'Move', 'Download'] as const) {
				expect(move(headers, { verb })).toEqual({ action: 'copy' });
			}
		}
		// In the listed second, Move reads again once settled, as for any unmarked answer.
		expect(move({ date: at(0), age: '0', xCache: 'MISS' })).toEqual({ action: 'read-again', afterMs: 4000 });
	});

	it('a MISS with an Age over 0, or a hit with Age: 0, stays kept: refused', () => {
		for (const [headers, mark] of [
			[{ date: at(60), age: '5', xCache: 'MISS' }, 'Age: 5'],
			[{ date: at(60), age: '0', xCache: 'HIT' }, 'Age: 0, X-Cache: HIT'],
		] as const) {
			expect(fetchedNoEarlierThan(headers)).toBeUndefined();
			for (const verb of ['Copy', 'Move', 'Download'] as const) {
				expect(move(headers, { verb })).toEqual({
					action: 'refuse',
					proof: 'unproven',
					why: expect.stringContaining(`a cache marked the CDN's answer as kept (${mark})`),
				});
			}
		}
	});
});

describe('copyCheckDecision: the check of a copy', () => {
	const sent = { bytes: 10, md5: 'a'.repeat(32) };
	const record = { size: 10, last_modified: T };
	// Dated in the record's second unless a test says otherwise.
	const head = (headers: CdnHeaders, size: number | null = 10) => ({
		size,
		headers: { lastModified: at(0), ...headers },
	});

	it('an MD5 ETag of the bytes sent dated another second than the record, or undated, is not compared (another bucket’s file?)', () => {
		for (const lastModified of [at(-3), at(2), undefined]) {
			const etag = `"${sent.md5}"`;
			expect(copyCheckDecision({ sent, record, head: head({ etag, lastModified }) })).toEqual({
				action: 'good',
				checked: ['size'],
			});
			// Another MD5, whatever its date, still shows the file there cannot be shown to be the copy.
			const other = `"${'b'.repeat(32)}"`;
			expect(copyCheckDecision({ sent, record, head: head({ etag: other, lastModified }) }).action).toBe(
				lastModified === at(-3) ? 'good' : 'keep',
			);
		}
	});

	it('the sizes agree and no comparable ETag: good, checked by size', () => {
		expect(copyCheckDecision({ sent, record, storedSize: 10 })).toEqual({ action: 'good', checked: ['size'] });
		expect(copyCheckDecision({ sent, record, head: head({ etag: '"abc-2"' }) })).toEqual({
			action: 'good',
			checked: ['size'],
		});
	});

	it('an MD5 ETag of the bytes sent, no cache marks: good, checked by size and ETag', () => {
		const decision = copyCheckDecision({ sent, record, head: head({ etag: `"${sent.md5}"` }) });
		expect(decision).toEqual({ action: 'good', checked: ['size', 'etag'] });
	});

	it('the upload and the listing agree on a size other than the bytes sent: faulty, but kept (another writer’s file of that size looks the same)', () => {
		const decision = copyCheckDecision({ sent, record: { size: 4, last_modified: T }, storedSize: 4 });
		expect(decision).toMatchObject({
			action: 'keep',
			why: expect.stringMatching(/^the service stored 4 bytes, but 10 were sent: the copy is faulty, but/),
		});
	});

	it('a stored size spelled as a string of digits counts as that number', () => {
		expect(copyCheckDecision({ sent, record, storedSize: '7' })).toMatchObject({ action: 'keep' });
	});

	it('a size that is neither the bytes sent nor what the upload stored: another writer’s, kept', () => {
		const decision = copyCheckDecision({ sent, record: { size: 37, last_modified: T }, storedSize: 10 });
		expect(decision).toMatchObject({ action: 'keep' });
	});

	it('the upload reported another size than the listing shows: kept (the file there is not shown to be this copy)', () => {
		expect(copyCheckDecision({ sent, record, storedSize: 4 })).toMatchObject({
			action: 'keep',
			why: expect.stringMatching(/the service stored 4 bytes, but 10 were sent/),
		});
	});

	it('an MD5 ETag of other bytes in an answer no cache marks: kept (another writer’s file of the same size?)', () => {
		const decision = copyCheckDecision({ sent, record, head: head({ etag: `"${'b'.repeat(32)}"` }) });
		expect(decision).toMatchObject({ action: 'keep', why: expect.stringMatching(/not the MD5 of the bytes sent/) });
	});

	it('an ETag a cache kept, or of an older answer, is no evidence: good, checked by size', () => {
		const other = `"${'b'.repeat(32)}"`;
		for (const headers of [
			{ etag: other, xCache: 'HIT' },
			{ etag: other, age: '3' },
			{ etag: other, lastModified: at(-60) },
		]) {
			expect(copyCheckDecision({ sent, record, head: head(headers) })).toEqual({ action: 'good', checked: ['size'] });
		}
		expect(copyCheckDecision({ sent, record, head: head({ etag: other }, 9) })).toEqual({
			action: 'good',
			checked: ['size'],
		});
	});

	it('fewer bytes read than the source announced: deleted only when an ETag shows the copy is this item’s', () => {
		const short = { sent, record, announced: 12 };
		expect(copyCheckDecision({ ...short, head: head({ etag: `"${sent.md5}"` }) })).toMatchObject({
			action: 'delete-copy',
		});
		expect(copyCheckDecision(short)).toMatchObject({ action: 'keep' });
	});
});

describe('existenceOf and purgeFailure: only the API’s own 404 means "not there" / "nothing cached"', () => {
	const api404 = { httpCode: '404', body: { error: 'Resource not found', message: 'Bucket or file not found' } };
	it.each([
		[{ httpCode: '404', body: '<h1>Not Found</h1>' }],
		[{ httpCode: '404', body: { error: 'Not Found' } }],
		[{ httpCode: '500', body: { error: 'Internal server error' } }],
		[{ httpCode: '403', body: { error: 'Forbidden' } }],
		[{ httpCode: '404', body: { message: 'no Route matched with those values' } }],
		[{ httpCode: '404', body: { message: 'Bucket or file not found' } }],
		[{ httpCode: '404', body: { error: 'Unauthorized route', message: 'not here' } }],
		[{}],
	])('%j shows nothing', (answer) => {
		expect(existenceOf(answer)).toBe('unknown');
		expect(purgeFailure(answer)).toBe('refuse');
	});

	it('the API’s own 404', () => {
		expect(existenceOf(api404)).toBe('absent');
		expect(purgeFailure(api404)).toBe('nothing-cached');
		expect(existenceOf({ linked: true })).toBe('exists');
	});
});

describe('sourceDeleteDecision: Move deletes only the version it copied', () => {
	it('the same record: delete; another: keep; none: gone', () => {
		expect(sourceDeleteDecision(listed, { ...listed })).toBe('delete');
		expect(sourceDeleteDecision(listed, { size: 10, last_modified: '2026-03-20T10:30:06Z' })).toBe('keep');
		expect(sourceDeleteDecision(listed, undefined)).toBe('gone');
	});
	it('records without a size or a readable time cannot be told apart: keep', () => {
		const undated = { size: 10, last_modified: undefined } as unknown as typeof listed;
		const sizeless = { size: undefined, last_modified: listed.last_modified } as unknown as typeof listed;
		expect(sourceDeleteDecision(undated, { ...undated })).toBe('keep');
		expect(sourceDeleteDecision(sizeless, { ...sizeless })).toBe('keep');
		expect(
			sourceDeleteDecision({ ...listed, last_modified: 'yesterday' }, { ...listed, last_modified: 'yesterday' }),
		).toBe('keep');
		expect(copyChangedBeforeDelete(undated, { ...undated })).toBeDefined();
	});
});

describe('copyChangedBeforeDelete: Move deletes its source only while the destination is the copy proved', () => {
	it('the same record: nothing changed; another size or second, or none: why the source stays', () => {
		expect(copyChangedBeforeDelete(listed, { ...listed })).toBeUndefined();
		expect(copyChangedBeforeDelete(listed, { size: 11, last_modified: listed.last_modified })).toMatch(
			/changed after the copy was checked .*now 11 bytes/,
		);
		expect(copyChangedBeforeDelete(listed, { size: 10, last_modified: '2026-03-20T10:30:06Z' })).toMatch(
			/another writer stored it/,
		);
		expect(copyChangedBeforeDelete(listed, undefined)).toBe('the copy is no longer at the destination');
	});
});

describe('readBackDecision: a Move proves its copy by reading it back when the CDN sends no MD5', () => {
	const sent = { bytes: 18, md5: 'a'.repeat(32) };
	const copyRecord = { size: 18, last_modified: T };
	// Dated in the copy's listed second unless a test says otherwise.
	const answer = (headers: CdnHeaders, digest = sent, size: number | undefined = digest.bytes) => ({
		sent,
		record: copyRecord,
		answer: { size, headers: { lastModified: at(0), ...headers }, digest },
	});

	it('an answer no cache marks, of the size and MD5 sent, is proof', () => {
		expect(readBackDecision(answer({ date: at(1), xCache: 'MISS' }))).toEqual({ action: 'good' });
		// No Content-Length: the bytes hashed are the size.
		expect(readBackDecision(answer({}, sent, undefined))).toEqual({ action: 'good' });
	});

	it('another MD5 at the same size is another writer’s file: keep, naming both MD5s', () => {
		const other = { bytes: 18, md5: 'b'.repeat(32) };
		const decision = readBackDecision(answer({}, other));
		expect(decision).toEqual({
			action: 'keep',
			why: expect.stringMatching(/MD5 is b{32}, not the MD5 of the bytes sent \(a{32}\)/),
		});
	});

	it('another size, announced or read, is no proof', () => {
		expect(readBackDecision(answer({}, sent, 19)).action).toBe('keep');
		expect(readBackDecision(answer({}, { bytes: 17, md5: sent.md5 })).action).toBe('keep');
	});

	it('an answer a cache marks as kept, dated or not, is no proof, even with the MD5 sent', () => {
		for (const headers of [
			{ age: '0' },
			{ xCache: 'HIT' },
			{ cacheStatus: ['cf-cache-status: HIT'] },
			{ date: 'Fri, 20 Mar 2026 10:40:00 GMT', age: '1', xCache: 'HIT' },
		]) {
			expect(readBackDecision(answer(headers))).toEqual({
				action: 'keep',
				why: expect.stringMatching(/^read back through its link, a cache marked the CDN's answer as kept/),
			});
		}
	});

	it('a kept answer is no proof however late its Date − Age after the copy’s listed second, and is not read again', () => {
		// Once taken (fetched 10:30:09, after 10:30:05 + 1 s + 3 s) or read again: now kept at once, the MD5 sent or not.
		for (const [date, age] of [
			['Fri, 20 Mar 2026 10:30:10 GMT', '0'],
			['Fri, 20 Mar 2026 10:30:08 GMT', '0'],
			['Fri, 20 Mar 2026 10:40:00 GMT', '1'],
		]) {
			expect(readBackDecision(answer({ date, age }))).toEqual({
				action: 'keep',
				why: expect.stringMatching(/a cache marked the CDN's answer as kept \(Age: /),
			});
		}
		// The same answer no cache marks is proof.
		expect(readBackDecision(answer({ date: 'Fri, 20 Mar 2026 10:30:06 GMT' }))).toEqual({ action: 'good' });
	});

	it('an answer of the bytes sent dated another second than the copy’s record, or undated, is no proof (another bucket’s file at the key)', () => {
		for (const [lastModified, why] of [
			[at(-5), /the service's listing says/],
			[at(-1), /the service's listing says/],
			[at(2), /after the listed one/],
			[undefined, /names no Last-Modified/],
		] as const) {
			expect(readBackDecision(answer({ lastModified }))).toEqual({
				action: 'keep',
				why: expect.stringMatching(why),
			});
		}
	});

	it('a read that failed is no proof, and says why', () => {
		expect(readBackDecision({ sent, record: copyRecord, answer: { failed: 'HTTP 503' } })).toEqual({
			action: 'keep',
			why: 'read back through its link, it could not be read: HTTP 503',
		});
	});
});

describe('fetchedNoEarlierThan', () => {
	it('is Date for an answer no cache marks, undefined for a kept one whatever its Date and Age, and without a Date', () => {
		expect(fetchedNoEarlierThan({ date: at(10) })).toBe(Date.parse(T) + 10_000);
		expect(fetchedNoEarlierThan({ date: at(10), xCache: 'MISS' })).toBe(Date.parse(T) + 10_000);
		// Age counts from the cache's last check with the origin (RFC 9111 §4.2.3): it dates no bytes.
		expect(fetchedNoEarlierThan({ date: at(10), age: '4' })).toBeUndefined();
		expect(fetchedNoEarlierThan({ date: at(10), age: '0' })).toBeUndefined();
		expect(fetchedNoEarlierThan({ date: at(600), age: '1', xCache: 'HIT' })).toBeUndefined();
		expect(fetchedNoEarlierThan({ date: at(10), cacheStatus: ['cf-cache-status: HIT'] })).toBeUndefined();
		expect(fetchedNoEarlierThan({ age: '4' })).toBeUndefined();
		expect(fetchedNoEarlierThan({})).toBeUndefined();
	});

	it('an Age sent as a list marks the answer as kept too (RFC 9111 §5.1): no time', () => {
		expect(fetchedNoEarlierThan({ date: at(10), age: '4, 9' })).toBeUndefined();
		expect(fetchedNoEarlierThan({ date: at(10), age: ' 4 ,4' })).toBeUndefined();
	});
});

describe("the service's Date before the read bounds the read's time: a CDN clock ahead of the storage's", () => {
	// The link's (or purge's) answer came at `service` (the storage's clock), then the CDN answered.
	const withService = (headers: CdnHeaders, service: number, extra: Partial<SourceRead> = {}) =>
		move(headers, { serviceDate: at(service), ...extra });

	it("fetchedNoEarlierThan takes the earlier of the CDN's Date and the service's; a kept answer gets no time", () => {
		expect(fetchedNoEarlierThan({ date: at(10) }, at(0))).toBe(Date.parse(T));
		expect(fetchedNoEarlierThan({ date: at(0) }, at(10))).toBe(Date.parse(T));
		expect(fetchedNoEarlierThan({ date: at(10), age: '2' }, at(5))).toBeUndefined();
		// No service Date (an API that sends none): the CDN's Date alone, as before.
		expect(fetchedNoEarlierThan({ date: at(10) }, undefined)).toBe(Date.parse(T) + 10_000);
		// No CDN Date: still unbounded (the service's Date says nothing of a kept answer's Age without it).
		expect(fetchedNoEarlierThan({ age: '1' }, at(60))).toBeUndefined();
	});

	it('Move: a CDN 10 s ahead cannot make a read in the listed second look settled; it is read again', () => {
		// Without the service's Date this answer would be taken (the defect): the CDN's clock alone says T + 10 s.
		expect(move({ date: at(10) })).toEqual({ action: 'copy' });
		expect(withService({ date: at(10) }, 0)).toEqual({ action: 'read-again', afterMs: 4000 });
		expect(withService({ date: at(10) }, 0, { isPublic: false })).toEqual({ action: 'read-again', afterMs: 4000 });
		expect(withService({ date: at(14) }, 3)).toEqual({ action: 'read-again', afterMs: 1000 });
		// Read again once the service's clock has passed the second and the margin: settled.
		expect(withService({ date: at(15) }, 4)).toEqual({ action: 'copy' });
	});

	it('a kept answer is refused whatever the CDN’s and the service’s Dates say (Move and Copy)', () => {
		const kept = { date: at(12), age: '1', xCache: 'HIT' };
		for (const verb of ['Copy', 'Move'] as const) {
			expect(move(kept, { verb })).toMatchObject({ action: 'refuse', proof: 'unproven' });
			expect(withService(kept, 2, { verb })).toMatchObject({ action: 'refuse', proof: 'unproven' });
			expect(withService(kept, 60, { verb })).toMatchObject({ action: 'refuse', proof: 'unproven' });
		}
	});

	it('Move: a CDN 10 s behind times the wait as before (its Date is the earlier one)', () => {
		expect(withService({ date: at(0) }, 10)).toEqual({ action: 'read-again', afterMs: 4000 });
		expect(withService({ date: at(-6) }, 4)).toEqual({ action: 'read-again', afterMs: 10_000 });
		expect(withService({ date: at(4) }, 14)).toEqual({ action: 'copy' });
		expect(withService({ date: at(50), age: '47', xCache: 'HIT' }, 60)).toMatchObject({ action: 'refuse' });
		expect(withService({ date: at(50), age: '10', xCache: 'HIT' }, 60)).toMatchObject({ action: 'refuse' });
		expect(withService({ date: at(50), xCache: 'MISS' }, 60)).toEqual({ action: 'copy' });
	});
});

describe('an answer reached through redirects: every redirect’s cache marks are the answer’s', () => {
	// The redirect a cache kept for 30 s points at an earlier version's URL, whose own answer is unmarked.
	const keptRedirect: CdnHeaders = { date: at(10), age: '30', xCache: 'HIT' };
	const throughKept = (headers: CdnHeaders): CdnHeaders => ({
		...headers,
		redirects: [{ date: at(10) }, keptRedirect],
	});

	it('keptByCache names the kept redirect; unmarked redirects add nothing', () => {
		expect(keptByCache(throughKept({ date: at(10) }))).toBe('a redirect that led to it (hop 2): Age: 30, X-Cache: HIT');
		expect(keptByCache({ date: at(10), redirects: [{ date: at(9), xCache: 'MISS' }] })).toBeUndefined();
	});

	it('fetchedNoEarlierThan is the earliest hop’s; any kept hop leaves no bound', () => {
		expect(fetchedNoEarlierThan(throughKept({ date: at(10) }))).toBeUndefined();
		expect(fetchedNoEarlierThan({ date: at(10), redirects: [{ date: at(9) }, { date: at(8) }] })).toBe(
			Date.parse(T) + 8000,
		);
		expect(fetchedNoEarlierThan({ date: at(10), redirects: [{ date: at(9) }] })).toBe(Date.parse(T) + 9000);
		expect(fetchedNoEarlierThan({ date: at(10), redirects: [{ date: at(9), xCache: 'HIT' }] })).toBeUndefined();
		// An unmarked redirect with no Date came after the service's answer before the read.
		expect(fetchedNoEarlierThan({ date: at(10), redirects: [{}] }, at(8))).toBe(Date.parse(T) + 8000);
		expect(fetchedNoEarlierThan({ date: at(10), redirects: [{}] })).toBeUndefined();
	});

	it('Copy and Move refuse an unmarked answer in the listed second reached through a kept redirect, saying so', () => {
		const headers = throughKept({ date: at(10), lastModified: at(0) });
		for (const verb of ['Copy', 'Move'] as const) {
			const decision = sourceReadDecision({ verb, isPublic: true, size: 10, headers, record: listed });
			expect(decision).toMatchObject({ action: 'refuse', proof: 'unproven', why: expect.stringMatching(/redirect/) });
		}
		// The same answer through a redirect no cache marks is proof.
		const fresh = { date: at(10), lastModified: at(0), redirects: [{ date: at(10) }] };
		expect(sourceReadDecision({ verb: 'Move', isPublic: true, size: 10, headers: fresh, record: listed })).toEqual({
			action: 'copy',
		});
	});

	it('a kept redirect is no proof however late its Date − Age (a kept answer’s rule)', () => {
		const late: CdnHeaders = { date: at(40), lastModified: at(0), redirects: [{ date: at(40), age: '30' }] };
		for (const verb of ['Copy', 'Move', 'Download'] as const) {
			expect(sourceReadDecision({ verb, isPublic: true, size: 10, headers: late, record: listed })).toEqual({
				action: 'refuse',
				proof: 'unproven',
				why: expect.stringMatching(/as kept \(a redirect that led to it \(hop 1\): Age: 30\)/),
			});
		}
	});

	it('the copy check compares no ETag reached through a kept redirect; the read-back keeps the source', () => {
		const sent = { bytes: 10, md5: 'a'.repeat(32) };
		const head = { size: 10, headers: throughKept({ etag: `"${sent.md5}"` }) };
		expect(copyCheckDecision({ sent, record: listed, head })).toEqual({ action: 'good', checked: ['size'] });
		const answer = { size: 10, headers: throughKept({ date: at(10) }), digest: sent };
		expect(readBackDecision({ sent, record: listed, answer })).toMatchObject({
			action: 'keep',
			why: expect.stringMatching(/hop 2/),
		});
	});
});
