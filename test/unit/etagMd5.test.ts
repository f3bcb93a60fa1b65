import { etagMd5 } from '../../nodes/FileStorage/upload/hashedSource';

describe('which ETags a copy is compared on', () => {
	it('a quoted or bare 32-digit hex ETag is the MD5 of the file (lower-cased)', () => {
		expect(etagMd5('"9B2CF535F27731C974343645A3985328"')).toBe('9b2cf535f27731c974343645a3985328');
		expect(etagMd5('9b2cf535f27731c974343645a3985328')).toBe('9b2cf535f27731c974343645a3985328');
	});

	it('a multipart ETag, a weak ETag, another form or none says nothing about the bytes', () => {
		expect(etagMd5('"9b2cf535f27731c974343645a3985328-3"')).toBeUndefined();
		expect(etagMd5('W/"9b2cf535f27731c974343645a3985328"')).toBeUndefined();
		expect(etagMd5('"abc"')).toBeUndefined();
		expect(etagMd5(null)).toBeUndefined();
		expect(etagMd5(undefined)).toBeUndefined();
	});
});
