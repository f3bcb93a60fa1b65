import {
	apiAnswerKept,
	keptByCache,
	cdnHeadersOf,
	revalidatedByCache,
} from '../../nodes/FileStorage/transport/cacheMarks';

describe('apiAnswerKept: what a cache says of keeping an answer of the API', () => {
	it('a hit in X-Cache or a cache status, or an Age of a second or more, is kept', () => {
		expect(apiAnswerKept({ 'X-Cache': 'HIT' })).toBe('X-Cache: HIT');
		expect(apiAnswerKept({ 'x-cache': 'Hit from cloudfront', age: '0' })).toBe('X-Cache: Hit from cloudfront');
		expect(apiAnswerKept({ Age: '3' })).toBe('Age: 3');
		expect(apiAnswerKept({ 'Cache-Status': 'gateway; hit' })).toBe('cache-status: gateway; hit');
		expect(apiAnswerKept({ 'CF-Cache-Status': 'STALE' })).toBe('cf-cache-status: STALE');
	});

	it('Age: 0 alone and MISS-type marks are not kept (a gateway stamping what it forwards)', () => {
		expect(apiAnswerKept({ Age: '0' })).toBeUndefined();
		expect(apiAnswerKept({ 'X-Cache': 'MISS', Age: '0' })).toBeUndefined();
		expect(apiAnswerKept({ 'Cache-Status': 'gateway; fwd=uri-miss', 'X-Cache-Status': 'BYPASS' })).toBeUndefined();
		expect(apiAnswerKept({ 'Content-Type': 'application/json' })).toBeUndefined();
		expect(apiAnswerKept(undefined)).toBeUndefined();
	});

	it("nginx's X-Proxy-Cache and Varnish's two-id X-Varnish name a kept answer; their miss marks do not", () => {
		for (const status of ['HIT', 'STALE', 'UPDATING', 'REVALIDATED']) {
			expect(apiAnswerKept({ 'X-Proxy-Cache': status })).toBe(`x-proxy-cache: ${status}`);
		}
		for (const status of ['MISS', 'BYPASS', 'EXPIRED', 'DYNAMIC']) {
			expect(apiAnswerKept({ 'X-Proxy-Cache': status, 'X-Cache-Status': status })).toBeUndefined();
		}
		expect(apiAnswerKept({ 'X-Varnish': '32770 32768' })).toBe('X-Varnish: 32770 32768');
		expect(apiAnswerKept({ 'X-Varnish': '32770', Age: '0' })).toBeUndefined();
	});

	it("Akamai's Akamai-Cache-Status and Vercel's X-Vercel-Cache name a kept answer; their misses do not", () => {
		expect(apiAnswerKept({ 'Akamai-Cache-Status': 'Hit from child' })).toBe('akamai-cache-status: Hit from child');
		expect(apiAnswerKept({ 'X-Vercel-Cache': 'STALE' })).toBe('x-vercel-cache: STALE');
		expect(keptByCache(cdnHeadersOf({ 'X-Vercel-Cache': 'HIT' }))).toBe('x-vercel-cache: HIT');
		expect(apiAnswerKept({ 'Akamai-Cache-Status': 'Miss from child, Miss from parent' })).toBeUndefined();
		expect(apiAnswerKept({ 'X-Vercel-Cache': 'MISS' })).toBeUndefined();
	});

	it('an Age that is not a valid number (negative, empty, a word) is still a cache’s Age: kept, for the API too', () => {
		for (const age of ['-1', '', 'soon', '1.5']) {
			expect(keptByCache(cdnHeadersOf({ Age: age }))).toBe(`Age: ${age}`);
			expect(apiAnswerKept({ Age: age })).toBe(`Age: ${age}`);
		}
		expect(keptByCache(cdnHeadersOf({ Age: '', 'X-Cache': 'MISS' }))).toBe('Age: ');
	});

	it('an RFC 9211 miss collapsed into another request’s fetch is kept, whatever its Age; collapsed=?0 is not', () => {
		const collapsed = 'ExampleCDN; fwd=uri-miss; fwd-status=200; collapsed';
		expect(keptByCache(cdnHeadersOf({ 'Cache-Status': collapsed, Age: '0' }))).toContain(`cache-status: ${collapsed}`);
		expect(keptByCache(cdnHeadersOf({ 'Cache-Status': collapsed }))).toContain(`cache-status: ${collapsed}`);
		expect(apiAnswerKept({ 'Cache-Status': 'gw; fwd=miss; collapsed=?1' })).toBe(
			'cache-status: gw; fwd=miss; collapsed=?1',
		);
		const notCollapsed = 'ExampleCDN; fwd=uri-miss; fwd-status=200; collapsed=?0';
		expect(keptByCache(cdnHeadersOf({ 'Cache-Status': notCollapsed, Age: '0' }))).toBeUndefined();
	});

	it("Squid's X-Cache-Lookup says what the cache held, not what it sent: its X-Cache decides", () => {
		expect(apiAnswerKept({ 'X-Cache-Lookup': 'HIT from squid:3128', 'X-Cache': 'MISS from squid' })).toBeUndefined();
		expect(apiAnswerKept({ 'X-Cache-Lookup': 'HIT from squid:3128', 'X-Cache': 'HIT from squid' })).toBe(
			'X-Cache: HIT from squid',
		);
	});

	it("a CDN's Age: 0 alone still counts as kept: its answer is no proof of the version", () => {
		expect(keptByCache(cdnHeadersOf({ Age: '0' }))).toBe('Age: 0');
	});
});

describe('keptByCache: Age: 0 with an explicit MISS is an answer fetched from the origin for this request', () => {
	it('MISS + Age: 0 (X-Cache, a cache status, or RFC 9211 miss forwards with fwd-status=200) is unmarked', () => {
		for (const headers of [
			{ 'X-Cache': 'MISS', Age: '0' },
			{ 'X-Cache': 'Miss from cloudfront', Age: '0' },
			{ 'CF-Cache-Status': 'MISS', Age: '0' },
			{ 'X-Cache-Status': 'MISS', 'X-Varnish': '32770', Age: '0' },
			{ 'Cache-Status': 'ExampleCDN; fwd=uri-miss; fwd-status=200', Age: '0' },
			{ 'Cache-Status': 'ExampleCDN; fwd=miss; fwd-status=200; stored', Age: '0' },
			{ 'Cache-Status': 'ExampleCDN; fwd=vary-miss; fwd-status=200', Age: '0' },
		]) {
			expect(keptByCache(cdnHeadersOf(headers))).toBeUndefined();
		}
	});

	it('MISS with Age over 0 stays kept (contradictory: the safe side); HIT with Age: 0 is kept', () => {
		expect(keptByCache(cdnHeadersOf({ 'X-Cache': 'MISS', Age: '5' }))).toBe('Age: 5');
		expect(keptByCache(cdnHeadersOf({ 'Cache-Status': 'ExampleCDN; fwd=miss; fwd-status=200', Age: '5' }))).toBe(
			'Age: 5',
		);
		expect(keptByCache(cdnHeadersOf({ 'X-Cache': 'HIT', Age: '0' }))).toBe('Age: 0, X-Cache: HIT');
	});

	it('a revalidation, a stale copy or another cache’s hit beside the MISS keeps it kept', () => {
		expect(keptByCache(cdnHeadersOf({ 'X-Cache': 'TCP_REFRESH_MISS', Age: '0' }))).toBe(
			'Age: 0, X-Cache: TCP_REFRESH_MISS',
		);
		expect(keptByCache(cdnHeadersOf({ 'X-Cache': 'MISS', 'CF-Cache-Status': 'STALE', Age: '0' }))).toBe(
			'Age: 0, cf-cache-status: STALE',
		);
		expect(keptByCache(cdnHeadersOf({ 'X-Cache': 'MISS', 'X-Varnish': '32770 32768', Age: '0' }))).toBe(
			'Age: 0, X-Varnish: 32770 32768',
		);
		// RFC 9211: a miss that revalidated (304), or one with no fwd-status, is no explicit fetch of new bytes.
		expect(keptByCache(cdnHeadersOf({ 'Cache-Status': 'Edge; fwd=miss; fwd-status=304', Age: '0' }))).toContain(
			'Age: 0',
		);
		expect(keptByCache(cdnHeadersOf({ 'Cache-Status': 'Edge; fwd=uri-miss', Age: '0' }))).toBe('Age: 0');
		expect(
			keptByCache(cdnHeadersOf({ 'Cache-Status': 'Edge; fwd=miss; fwd-status=200, Shield; hit', Age: '0' })),
		).toContain('Shield; hit');
	});

	it("a redirect's MISS + Age: 0 is unmarked too; its MISS + Age: 3 keeps the answer kept", () => {
		expect(keptByCache({ redirects: [{ xCache: 'MISS', age: '0' }] })).toBeUndefined();
		expect(keptByCache({ redirects: [{ xCache: 'MISS', age: '3' }] })).toBe(
			'a redirect that led to it (hop 1): Age: 3',
		);
	});
});

describe('revalidatedByCache: an answer a cache served on a revalidation (its Date and Age date the check, not the bytes)', () => {
	it.each([
		[{ 'CF-Cache-Status': 'REVALIDATED' }, 'cf-cache-status: REVALIDATED'],
		[{ 'X-Cache-Status': 'REVALIDATED' }, 'x-cache-status: REVALIDATED'],
		[{ 'X-Proxy-Cache': 'revalidated' }, 'x-proxy-cache: revalidated'],
		[{ 'X-Cache': 'RefreshHit from cloudfront' }, 'X-Cache: RefreshHit from cloudfront'],
		[{ 'X-Cache': 'TCP_REFRESH_HIT from a1.example' }, 'X-Cache: TCP_REFRESH_HIT from a1.example'],
		[{ 'X-Cache': 'TCP_REFRESH_UNMODIFIED' }, 'X-Cache: TCP_REFRESH_UNMODIFIED'],
		[{ 'X-Cache': 'TCP_REFRESH_FAIL_HIT' }, 'X-Cache: TCP_REFRESH_FAIL_HIT'],
		[{ 'X-Cache': 'TCP_REFRESH_MISS' }, 'X-Cache: TCP_REFRESH_MISS'],
		[
			{ 'Cache-Status': 'ExampleCDN; fwd=stale; fwd-status=304' },
			'cache-status: ExampleCDN; fwd=stale; fwd-status=304',
		],
		[
			{ 'Cache-Status': 'ExampleCDN; fwd=stale; fwd-status=200' },
			'cache-status: ExampleCDN; fwd=stale; fwd-status=200',
		],
		[{ 'Cache-Status': 'Edge; fwd=miss; fwd-status=304' }, 'cache-status: Edge; fwd=miss; fwd-status=304'],
		[
			{ 'Cache-Status': 'Origin; hit, Edge; fwd=stale; fwd-status=304; stored' },
			'cache-status: Origin; hit, Edge; fwd=stale; fwd-status=304; stored',
		],
	])('%j is a revalidation (%s), and is kept', (headers, words) => {
		expect(revalidatedByCache(cdnHeadersOf(headers))).toBe(words);
		expect(keptByCache(cdnHeadersOf(headers))).toContain(words);
	});

	it('hits, misses and the other RFC 9211 forwards are no revalidation (the Age rule dates a hit)', () => {
		for (const headers of [
			{ 'CF-Cache-Status': 'HIT', Age: '0' },
			{ 'CF-Cache-Status': 'STALE' },
			{ 'CF-Cache-Status': 'UPDATING' },
			{ 'X-Cache': 'Hit from cloudfront' },
			{ 'X-Cache': 'TCP_HIT' },
			{ 'X-Cache': 'MISS', Age: '0' },
			{ 'X-Cache-Status': 'EXPIRED' },
			{ 'Cache-Status': 'ExampleCDN; hit; ttl=30' },
			{ 'Cache-Status': 'ExampleCDN; fwd=uri-miss; fwd-status=200; stored' },
			{ 'Cache-Status': 'ExampleCDN; fwd=vary-miss, Other; fwd=request' },
			// A quoted key or detail that spells a revalidation is not a parameter.
			{ 'Cache-Status': 'ExampleCDN; fwd=miss; detail="fwd=stale; fwd-status=304"' },
			{ 'Cache-Status': 'ExampleCDN; fwd=miss; key="a,b\\"; fwd=stale"' },
			{},
		]) {
			expect(revalidatedByCache(cdnHeadersOf(headers))).toBeUndefined();
		}
	});

	it('a redirect a cache revalidated makes the answer one', () => {
		const headers = { date: 'Fri, 20 Mar 2026 10:30:10 GMT', redirects: [{ xCache: 'RefreshHit from cloudfront' }] };
		expect(revalidatedByCache(headers)).toBe('a redirect that led to it (hop 1): X-Cache: RefreshHit from cloudfront');
	});
});
