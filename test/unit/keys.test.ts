import { folderPrefix, joinKey, keyProblem } from '../../nodes/FileStorage/helpers/keys';

describe('key rules', () => {
	it.each([
		'a.txt',
		' spaces at both ends ',
		'reports/Q1 résumé+final.pdf',
		'%20 literally & = # ? ; "quotes" \\ back',
		'emoji/🚀📦.bin',
		'x'.repeat(1024),
		'é'.repeat(512),
		'tab\there',
		'line\nbreak',
		'del\u007f',
	])('accepts %j', (key) => {
		expect(keyProblem(key)).toBeUndefined();
	});

	it.each([
		['', /empty/],
		['/leading', /starts with '\/'/],
		['a/../b', /'\.\.' segment/],
		['..', /'\.\.' segment/],
		['nul\u0000byte', /U\+0000/],
		['x'.repeat(1025), /1025 bytes.*1024/],
		['é'.repeat(513), /1026 bytes/],
	])('refuses %j naming the rule', (key, rule) => {
		expect(keyProblem(key)).toMatch(rule);
	});

	it('joins folders and names with exactly one slash', () => {
		expect(joinKey('', 'a.txt')).toBe('a.txt');
		expect(joinKey('docs', 'a.txt')).toBe('docs/a.txt');
		expect(joinKey('docs//', 'a.txt')).toBe('docs/a.txt');
		expect(folderPrefix('')).toBe('');
		expect(folderPrefix('docs')).toBe('docs/');
		expect(folderPrefix('/docs/')).toBe('docs/');
	});
});
