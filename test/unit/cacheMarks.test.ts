import { apiAnswerKept, keptByCache, cdnHeadersOf } from '../../nodes/FileStorage/transport/cacheMarks';

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

	it("Squid's X-Cache-Lookup says what the cache held, not what it sent: its X-Cache decides", () => {
		expect(apiAnswerKept({ 'X-Cache-Lookup': 'HIT from squid:3128', 'X-Cache': 'MISS from squid' })).toBeUndefined();
		expect(apiAnswerKept({ 'X-Cache-Lookup': 'HIT from squid:3128', 'X-Cache': 'HIT from squid' })).toBe(
			'X-Cache: HIT from squid',
		);
	});

	it("a CDN's Age: 0 still counts as kept (its time is read from Date and Age instead)", () => {
		expect(keptByCache(cdnHeadersOf({ Age: '0' }))).toBe('Age: 0');
	});
});
