/**
 * Review: can the README claims check (scripts/readme/claims.ts) be fooled? README (Reliability):
 * "`npm test` checks that every row names a test that exists". A cited test that never runs, or
 * runs inverted, proves nothing.
 */
import { checkClaims } from '../../scripts/readme/claims';

const readme = (proof: string) => `# Package

## Reliability

| guarantee | how it is tested |
| --------- | ---------------- |
| stored exactly | ${proof} |

## Bad input and what you see

| input | result |
| ----- | ------ |
| empty file | \`real.test.ts\` › "refuses an empty file" |

## Next
`;

const real = "it('refuses an empty file', () => {});";

describe('the README claims check cannot be fooled', () => {
	it.each<[string, string]>([
		['a skipped test', "it.skip('stores the file byte-identical', () => {});"],
		[
			'a test inside a skipped describe',
			"describe.skip('g', () => { it('stores the file byte-identical', () => {}); });",
		],
		[
			'an it.failing test (it passes when the claim is false)',
			"it.failing('stores the file byte-identical', () => {});",
		],
		['a title in a comment', "// it('stores the file byte-identical', () => {});\nit('other', () => {});"],
		['a title in a string', "const text = \"it('stores the file byte-identical')\";\nit('other', () => {});"],
	])('a row citing %s is reported', (_kind, source) => {
		const problems = checkClaims({
			readme: readme('`upload.test.ts` › "stores the file byte-identical"'),
			testFiles: { 'node/upload.test.ts': source, 'node/real.test.ts': real },
		});
		expect(problems).not.toEqual([]);
	});

	it('a citation of one or two letters (it matches nearly any title) is reported', () => {
		const problems = checkClaims({
			readme: readme('`upload.test.ts` › "e"'),
			testFiles: { 'node/upload.test.ts': "it('lists the folder', () => {});", 'node/real.test.ts': real },
		});
		expect(problems).not.toEqual([]);
	});
});
