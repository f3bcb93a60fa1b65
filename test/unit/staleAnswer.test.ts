import { sameVersion, staleAnswer } from '../../nodes/FileStorage/files/storedRecord';

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

	it('the same second, a second of rounding, a later date, or no date at all agree', () => {
		for (const lastModified of [
			'Fri, 20 Mar 2026 10:30:05 GMT',
			'Fri, 20 Mar 2026 10:30:04 GMT',
			'Fri, 20 Mar 2026 11:00:00 GMT',
			undefined,
			'not a date',
		]) {
			expect(staleAnswer({ size: 10, lastModified }, record)).toBeUndefined();
		}
		expect(staleAnswer({}, { size: null, last_modified: null })).toBeUndefined();
	});
});

describe('sameVersion', () => {
	it('compares size and the time of last_modified, however it is spelled', () => {
		expect(sameVersion(record, { size: 10, last_modified: '2026-03-20T10:30:05.000Z' })).toBe(true);
		expect(sameVersion(record, { size: 11, last_modified: record.last_modified })).toBe(false);
		expect(sameVersion(record, { size: 10, last_modified: '2026-03-20T10:30:06Z' })).toBe(false);
	});
});
