/** Content types compared as media types (files/mediaType.ts): what counts as the same type for a copy. */
import { parseMediaType, sameMediaType } from '../../nodes/FileStorage/files/mediaType';

describe('sameMediaType: content types compared as media types', () => {
	it.each([
		['text/csv', 'text/csv'],
		['Text/CSV', 'text/csv'],
		['text/csv; charset=iso-8859-1', 'text/csv;charset=ISO-8859-1'],
		['text/csv ;  charset = "utf-8"', 'TEXT/csv; Charset=UTF-8'],
		['text/plain; charset=utf-8; format=flowed', 'text/plain; format=flowed; charset=utf-8'],
		['text/plain; charset=utf-8;', 'text/plain; charset=utf-8'],
		['multipart/mixed; boundary="a;b"', 'multipart/mixed; boundary="a;b"'],
	])('%j is the same media type as %j', (a, b) => {
		expect(sameMediaType(a, b)).toBe(true);
		expect(sameMediaType(b, a)).toBe(true);
	});

	it.each([
		['text/csv; charset=iso-8859-1', 'text/csv; charset=utf-8'],
		['text/csv; charset=iso-8859-1', 'text/csv'],
		['text/csv', 'text/plain'],
		['text/plain; format=flowed', 'text/plain; format=Flowed'],
		['text/plain; charset=utf8', 'text/plain; charset=utf-8'],
		['multipart/mixed; boundary="a;b"', 'multipart/mixed; boundary=a'],
		['not a type', 'Not a type'],
	])('%j is not the same media type as %j', (a, b) => {
		expect(sameMediaType(a, b)).toBe(false);
		expect(sameMediaType(b, a)).toBe(false);
	});

	it('reads a quoted value with an escaped quote and a ; inside it', () => {
		expect(parseMediaType('application/x; name="a\\"b;c"; charset=UTF-8')).toEqual({
			essence: 'application/x',
			parameters: [
				['charset', 'utf-8'],
				['name', 'a"b;c'],
			],
		});
	});
});
