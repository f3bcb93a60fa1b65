/**
 * Every claim has its test (scripts/readme/claims.ts): the check on tiny made-up promise pages and
 * test folder, so it cannot pass silently, then on this repository's docs/reliability.md and
 * docs/bad-input.md.
 */
import { checkClaims, checkRepository, citationsIn } from '../../scripts/readme/claims';
import { testCases, testTitles } from '../../scripts/readme/testCases';

const TESTS = {
	'node/good.test.ts': `describe('group', () => {
	it('stores the file byte-identical', async () => {});
	it.each<[string, number]>([['a (b)', 1], ["c's", 2]])('refuses %s with a clear error', async () => {});
	test("keeps the user's \\"quotes\\"", () => {});
});`,
	'node/twin.test.ts': "it('one', () => {});",
	'unit/twin.test.ts': "it('two', () => {});",
};

/** The two promise pages, the first holding `rows` from its line 7 on. */
const pages = (rows: string) => ({
	'docs/reliability.md': `# Package

## Reliability

| promise | tests |
| ------- | ----- |
${rows}

## Next

| not a promise table | result |
| --- | --- |
| no citation here | fine |
`,
	'docs/bad-input.md': `# Bad input

| input | what you see | tests |
| ----- | ------------ | ----- |
| empty file | "is empty" | \`good.test.ts\` › "refuses %s with" |
`,
});

/** One Reliability row citing `proof`, over a file `node/upload.test.ts` holding `source`. */
const problemsFor = (proof: string, source: string) =>
	checkClaims({
		pages: pages(`| stored exactly | ${proof} |`),
		testFiles: { 'node/upload.test.ts': source, 'node/good.test.ts': TESTS['node/good.test.ts'] },
	});
const CITED = '`upload.test.ts` › "stores the file byte-identical"';

describe('the promise claims check', () => {
	it('reads the titles of it(), it.each()() and test(), not of describe()', () => {
		expect(testTitles(TESTS['node/good.test.ts'])).toEqual([
			'stores the file byte-identical',
			'refuses %s with a clear error',
			'keeps the user\'s "quotes"',
		]);
	});

	it('reads several citations from one cell', () => {
		expect(citationsIn('x (`a.test.ts` › "one"; `node/b.test.ts` › "two")')).toEqual([
			{ file: 'a.test.ts', title: 'one' },
			{ file: 'node/b.test.ts', title: 'two' },
		]);
	});

	it('passes rows that each cite an existing test', () => {
		const rows = '| stored exactly | sha256 compared (`good.test.ts` › "byte-identical") |';
		expect(checkClaims({ pages: pages(rows), testFiles: TESTS })).toEqual([]);
	});

	it('fails a row without a test, a wrong file, a wrong title and an ambiguous file, saying how to fix each', () => {
		const rows = [
			'| no proof | trust me |',
			'| wrong file | `nope.test.ts` › "byte-identical" |',
			'| wrong title | `good.test.ts` › "is fast" |',
			'| describe title | `good.test.ts` › "group" |',
			'| ambiguous | `twin.test.ts` › "one" |',
			'| good | `good.test.ts` › "byte-identical" |',
		].join('\n');
		const problems = checkClaims({ pages: pages(rows), testFiles: TESTS });
		expect(problems).toEqual([
			expect.stringMatching(
				/^docs\/reliability\.md:7 \("## Reliability", row "no proof"\) names no test\. Add `fileName\.test\.ts` › "/,
			),
			expect.stringMatching(
				/^docs\/reliability\.md:8 .*row "wrong file".* cites `nope\.test\.ts`, but there is no such file under test\//,
			),
			expect.stringMatching(
				/^docs\/reliability\.md:9 .*cites "is fast" in test\/node\/good\.test\.ts, but no it\(\)\/test\(\) title/,
			),
			expect.stringMatching(/^docs\/reliability\.md:10 .*cites "group" in test\/node\/good\.test\.ts/),
			expect.stringMatching(
				/^docs\/reliability\.md:11 .*`twin\.test\.ts`, which is ambiguous \(node\/twin\.test\.ts, unit\/twin\.test\.ts\)/,
			),
		]);
	});

	it('fails when a promise page is missing, has no promise table, or only an empty one', () => {
		const noTable = '# Reliability\n\n| promise | proof |\n| --- | --- |\n| a | b |\n';
		expect(checkClaims({ pages: { 'docs/reliability.md': noTable }, testFiles: TESTS })).toEqual([
			'docs/reliability.md has no promise table with rows (a table whose last column is headed "tests"): the claims check needs one.',
			'docs/bad-input.md is missing: the claims check reads its promise tables.',
		]);
		const empty = '# Reliability\n\n| promise | tests |\n| --- | --- |\n';
		const { 'docs/bad-input.md': badInput } = pages('');
		expect(
			checkClaims({ pages: { 'docs/reliability.md': empty, 'docs/bad-input.md': badInput }, testFiles: TESTS }),
		).toEqual([
			'docs/reliability.md has no promise table with rows (a table whose last column is headed "tests"): the claims check needs one.',
		]);
	});

	it('reads every promise table of a page, under any heading, with rows that continue the promise above, and none inside a code block', () => {
		const page = [
			'# Reliability', // 1
			'', // 2
			'### Uploads', // 3
			'', // 4
			'| promise | how | tests |', // 5
			'| --- | --- | --- |', // 6
			'| one | x | `good.test.ts` › "byte-identical" |', // 7
			'', // 8
			'### Downloads', // 9
			'', // 10
			'| promise | tests |', // 11
			'| --- | --- |', // 12
			'| two | trust me |', // 13
			'|  | `good.test.ts` › "byte-identical" |', // 14
			'|  | trust me too |', // 15
			'', // 16
			'```md', // 17
			'| promise | tests |', // 18
			'| --- | --- |', // 19
			'| in a code block | trust me |', // 20
			'```', // 21
		].join('\n');
		const { 'docs/bad-input.md': badInput } = pages('');
		expect(
			checkClaims({ pages: { 'docs/reliability.md': page, 'docs/bad-input.md': badInput }, testFiles: TESTS }),
		).toEqual([
			expect.stringMatching(/^docs\/reliability\.md:13 \("### Downloads", row "two"\) names no test\./),
			// A row with an empty first cell continues the promise above it, and is named by it.
			expect.stringMatching(/^docs\/reliability\.md:15 \("### Downloads", row "two"\) names no test\./),
		]);
	});

	it('reads the titles of it.each with a tagged table, describe.each, it.concurrent and literals joined with +', () => {
		const source = [
			"describe.each([[1]])('group %s', () => { it.concurrent('runs in ' + 'parallel', async () => {}); });",
			"it.each`a | b\n${1} | ${2}`('adds $a and $b', () => {});",
			'it(`keeps ${"a"} template`, () => {});',
		].join('\n');
		expect(testTitles(source)).toEqual(['runs in parallel', 'adds $a and $b', 'keeps ${"a"} template']);
	});

	it('does not count a title written in a comment or inside a string', () => {
		const source = [
			"// it('in a line comment', () => {});",
			"/* test('in a block comment', () => {}); */",
			'const text = "it(\'inside a string\')";',
			"const regex = /it\\('inside a regex'\\)/;",
			"it('real', () => { expect(`it('inside a template')`).toBe(text); });",
		].join('\n');
		expect(testTitles(source)).toEqual(['real']);
	});

	it('tells which tests never run: skip, xit, todo, failing, a skipped describe, and everything outside a .only', () => {
		const run = (source: string) => testCases(source).map(({ title, run, why }) => ({ title, run, why }));
		expect(
			run(
				[
					"it.skip('a', () => {});",
					"xit('b', () => {});",
					"test.todo('c');",
					"it.failing('d', () => {});",
					"it.skip.each([[1]])('e %s', () => {});",
					"describe.skip('g', () => { it('f', () => {}); });",
					"xdescribe('g', () => { describe('h', () => { test('g', () => {}); }); });",
					"it('h', () => {});",
				].join('\n'),
			),
		).toEqual([
			{ title: 'a', run: 'skipped', why: 'it.skip' },
			{ title: 'b', run: 'skipped', why: 'xit' },
			{ title: 'c', run: 'todo', why: 'test.todo' },
			{ title: 'd', run: 'failing', why: 'it.failing' },
			{ title: 'e %s', run: 'skipped', why: 'it.skip' },
			{ title: 'f', run: 'skipped', why: 'describe.skip' },
			{ title: 'g', run: 'skipped', why: 'xdescribe' },
			{ title: 'h', run: 'runs', why: undefined },
		]);
		expect(run("describe.only('g', () => { it('a', () => {}); });\nit('b', () => {});")).toEqual([
			{ title: 'a', run: 'runs', why: undefined },
			{ title: 'b', run: 'skipped', why: '.only elsewhere in the file' },
		]);
	});

	it('tells which tests skip themselves at run time: (cond ? it : it.skip), and a describe chosen into a variable', () => {
		const source = [
			'(constants.MAX_LENGTH <= 4096 ? it : it.skip)(',
			"	'needs a small buffer limit', () => {});",
			'const onDisk = mounted ? describe : describe.skip;',
			'const describeIfRoot = isRoot() ? onDisk : xdescribe;',
			"describeIfRoot('g', () => { it('needs root and a disk', () => {}); });",
			"(ok ? it.skip : xit)('never', () => {});",
			"(ok ? it : test)('always', () => {});",
		].join('\n');
		expect(testCases(source).map(({ title, run, why }) => ({ title, run, why }))).toEqual([
			{ title: 'needs a small buffer limit', run: 'conditional', why: 'constants.MAX_LENGTH <= 4096 ? it : it.skip' },
			{
				title: 'needs root and a disk',
				run: 'conditional',
				why: 'isRoot() ? onDisk : xdescribe; mounted ? describe : describe.skip',
			},
			{ title: 'never', run: 'skipped', why: 'ok ? it.skip : xit' },
			{ title: 'always', run: 'runs', why: undefined },
		]);
	});

	it.each<[string, string]>([
		['it.skip', "it.skip('stores the file byte-identical', () => {});"],
		['xit', "xit('stores the file byte-identical', () => {});"],
		['it.todo', "it.todo('stores the file byte-identical');"],
		['an it inside describe.skip', "describe.skip('g', () => { it('stores the file byte-identical', () => {}); });"],
		['an it inside xdescribe', "xdescribe('g', () => { it('stores the file byte-identical', () => {}); });"],
		['it.failing (it passes when the claim is false)', "it.failing('stores the file byte-identical', () => {});"],
		['a test left out by a .only', "it.only('other', () => {});\nit('stores the file byte-identical', () => {});"],
		['a title in a comment', "// it('stores the file byte-identical', () => {});\nit('other', () => {});"],
		['a title in a string', "const text = \"it('stores the file byte-identical')\";\nit('other', () => {});"],
	])('refuses a row citing %s', (_kind, source) => {
		expect(problemsFor(CITED, source)).toEqual([
			expect.stringMatching(
				/^docs\/reliability\.md:7 .* cites "stores the file byte-identical" in test\/node\/upload\.test\.ts, but (the test at line \d+ (is skipped|is only a todo|is marked it\.failing).*: it proves nothing\. Make it run, or cite a test that runs\.|no it\(\)\/test\(\) title there contains it\.)/,
			),
		]);
	});

	it('refuses a citation shorter than 12 characters unless it is the whole title, and one that several titles contain', () => {
		const source = [
			"it('lists the folder', () => {});",
			"it('e', () => {});",
			"it('lists the folder again', () => {});",
		].join('\n');
		expect(problemsFor('`upload.test.ts` › "l"', source)).toEqual([
			expect.stringMatching(
				/cites "l" in .*, which is too short to name one test \(2 title\(s\) contain it\)\. Quote the whole title or at least 12 characters/,
			),
		]);
		const wholeTitles = '`upload.test.ts` › "e"; `upload.test.ts` › "lists the folder"';
		expect(problemsFor(`${wholeTitles}; \`upload.test.ts\` › "the folder a"`, source)).toEqual([]);
		expect(problemsFor('`upload.test.ts` › "lists the fold"', source)).toEqual([
			expect.stringMatching(/cites "lists the fold" in .*, which 2 different titles there contain\. Quote enough/),
		]);
	});

	it('refuses a citation of a test that skips itself at run time unless the row says where it runs, as "(runs only …)"', () => {
		const source =
			"const onDisk = mounted ? describe : describe.skip;\nonDisk('g', () => { it('stores the file byte-identical', () => {}); });";
		expect(problemsFor(CITED, source)).toEqual([
			'docs/reliability.md:7 ("## Reliability", row "stored exactly") cites "stores the file byte-identical" in test/node/upload.test.ts, but the test at line 2 skips itself at run time (mounted ? describe : describe.skip). Say where it runs right after the citation, e.g. `upload.test.ts` › "stores the file byte-identical" (runs only where …), or cite a test that always runs.',
		]);
		expect(problemsFor(`${CITED} (runs only where a tmpfs can be mounted)`, source)).toEqual([]);
		expect(citationsIn(`${CITED} (runs only as root)`)).toEqual([
			{ file: 'upload.test.ts', title: 'stores the file byte-identical', runsOnly: 'runs only as root' },
		]);
	});

	it('every row of the promise tables of docs/reliability.md and docs/bad-input.md names a test that exists', () => {
		const problems = checkRepository();
		if (problems.length > 0) throw new Error(`${problems.length} promise(s) without a test:\n${problems.join('\n')}`);
	});
});
