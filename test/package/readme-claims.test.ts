/**
 * Every claim has its test (scripts/readme/claims.ts): the check on a tiny made-up README and
 * test folder, so it cannot pass silently, then on this repository's README.
 */
import { checkClaims, checkRepository, citationsIn, testTitles } from '../../scripts/readme/claims';

const TESTS = {
	'node/good.test.ts': `describe('group', () => {
	it('stores the file byte-identical', async () => {});
	it.each<[string, number]>([['a (b)', 1], ["c's", 2]])('refuses %s with a clear error', async () => {});
	test("keeps the user's \\"quotes\\"", () => {});
});`,
	'node/twin.test.ts': "it('one', () => {});",
	'unit/twin.test.ts': "it('two', () => {});",
};

const readme = (rows: string) => `# Package

## Reliability

| guarantee | how it is tested |
| --------- | ---------------- |
${rows}

## Bad input and what you see

| input | result |
| ----- | ------ |
| empty file | "is empty" (\`good.test.ts\` › "refuses %s with") |

## Next
`;

describe('the README claims check', () => {
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
		expect(checkClaims({ readme: readme(rows), testFiles: TESTS })).toEqual([]);
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
		const problems = checkClaims({ readme: readme(rows), testFiles: TESTS });
		expect(problems).toEqual([
			expect.stringMatching(
				/^README\.md:7 \("## Reliability", row "no proof"\) names no test\. Add `fileName\.test\.ts` › "/,
			),
			expect.stringMatching(
				/^README\.md:8 .*row "wrong file".* cites `nope\.test\.ts`, but there is no such file under test\//,
			),
			expect.stringMatching(
				/^README\.md:9 .*cites "is fast" in test\/node\/good\.test\.ts, but no it\(\)\/test\(\) title/,
			),
			expect.stringMatching(/^README\.md:10 .*cites "group" in test\/node\/good\.test\.ts/),
			expect.stringMatching(
				/^README\.md:11 .*`twin\.test\.ts`, which is ambiguous \(node\/twin\.test\.ts, unit\/twin\.test\.ts\)/,
			),
		]);
	});

	it('fails when a claim table is missing or empty', () => {
		expect(checkClaims({ readme: '# Package\n\n## Reliability\n\nNo table.\n', testFiles: TESTS })).toEqual([
			'The "## Reliability" section of README.md has no table rows.',
			'README.md has no "## Bad input and what you see" section: the claims check needs its table.',
		]);
	});

	it("every row of this README's Reliability and Bad input tables names a test that exists", () => {
		const problems = checkRepository();
		if (problems.length > 0)
			throw new Error(`${problems.length} README claim(s) without a test:\n${problems.join('\n')}`);
	});
});
