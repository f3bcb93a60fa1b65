import {
	folderPrefix,
	joinKey,
	keyFromLocation,
	keyProblem,
	linkRewritesKey,
	transformShapedDestination,
	transformShapedFolder,
} from '../../nodes/FileStorage/files/keys';

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

describe('keys from file locations', () => {
	it.each([
		['https://cdn.example.com/f/acc/reports/q1.pdf', 'reports/q1.pdf'],
		['http://127.0.0.1:9480/f/emulator/a%20b%2Bc/r%C3%A9sum%C3%A9.pdf', 'a b+c/résumé.pdf'],
		['https://cdn.example.com/f/acc/x.bin?expires=1&signature=abc', 'x.bin'],
		['https://cdn.example.com/f/acc/dir/./same%3Fq%23h', 'dir/./same?q#h'],
		['https://cdn.example.com/f/acc/100%25', '100%'],
	])('%s names %j', (url, key) => {
		expect(keyFromLocation(url)).toBe(key);
	});

	it.each([
		'reports/q1.pdf',
		'ftp://cdn.example.com/f/acc/x',
		'https://cdn.example.com/files/acc/x',
		'https://cdn.example.com/f/acc/',
		'https://cdn.example.com/f/acc/bad%E0%A4%A',
	])('%s is not a file location', (url) => {
		expect(keyFromLocation(url)).toBeUndefined();
	});
});

describe('links a URL client would rewrite', () => {
	const cdn = 'https://cdn.example/f/acc';
	it.each([
		[`${cdn}/./docs/a.txt?sig=x`, './docs/a.txt', 'docs/a.txt'],
		[`${cdn}/docs/%2e/a.txt`, 'docs/./a.txt', 'docs/a.txt'],
		[`${cdn}/docs/%2E`, 'docs/.', 'docs/'],
	])('%s names %j but reaches %j', (url, named, reached) => {
		expect(linkRewritesKey(url)).toEqual({ named, reached });
	});

	it.each([
		`${cdn}/docs/a.txt?sig=x`,
		`${cdn}/docs/.hidden/a..b`,
		`${cdn}/docs/%252e/a.txt`,
		'https://elsewhere.example/x/./y',
	])('%s is fetched as given (it reaches the key it names, or is no file link)', (url) => {
		expect(linkRewritesKey(url)).toBeUndefined();
	});
});

describe('first folders a CDN may read as a transformation (spec §3.11)', () => {
	it.each([
		['tr-w_200/cat.jpg', 'tr-w_200'],
		['thumb-pg_2/report.pdf', 'thumb-pg_2'],
		['thumb-so_5.0/a/clip.mp4', 'thumb-so_5.0'],
		['tr-notes/list.txt', 'tr-notes'],
	])('%s: the first folder %j has the shape, tr- and thumb- alike', (key, folder) => {
		expect(transformShapedFolder(key)).toBe(folder);
	});

	it.each(['img/tr-w_200/cat.jpg', 'thumbnails/a.jpg', 'tr-w_200', 'thumb-pg_1', 'TR-w_200/a.jpg'])(
		'%s has no transformation-shaped first folder',
		(key) => {
			expect(transformShapedFolder(key)).toBeUndefined();
		},
	);
});

describe("a copy's destination the CDN reads as a transformation: a key, or a folder every key goes below", () => {
	it.each([
		['tr-w_200/a/report.txt', 'tr-w_200'],
		['tr-w_200/a/', 'tr-w_200'],
		['tr-w_200/', 'tr-w_200'],
		['thumb-w_300,h_200/', 'thumb-w_300,h_200'],
	])('%s: every copy there has the first folder %j', (destination, folder) => {
		expect(transformShapedDestination(destination)).toBe(folder);
	});

	it.each(['', 'copies/tr-w_200/', 'tr-w_200', 'trw_200/a.txt', 'copies/'])('%j is not refused', (destination) => {
		expect(transformShapedDestination(destination)).toBeUndefined();
	});
});
