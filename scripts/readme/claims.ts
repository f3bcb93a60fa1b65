/**
 * Every claim has its test: the README's "Reliability" and "Bad input and what you see" tables
 * promise behaviour, and each row must name a test that would fail if the promise broke.
 *
 * Citation format, in the right-hand cell of a row (one or more, anywhere in the cell):
 *
 *     `fileName.test.ts` › "exact test title or a distinctive substring of it"
 *
 * - the file name is looked up under test/ by its name; when two files share a name, give the
 *   folder too (`node/upload.test.ts`);
 * - the quoted text must occur, as written, in the title of an `it(…)` / `test(…)` (also
 *   `it.each(…)(…)`, whose title is the template, `%s` and all) of that file; `describe` titles
 *   do not count, nor do titles in comments or strings, and the title may not contain a double quote;
 * - the quoted text is the whole title or at least MIN_CITATION characters of it, and names one
 *   test: a quote that several titles contain is refused;
 * - every test it matches must run: not `.skip`/`xit`, `.todo`, `.failing` (which passes when the
 *   claim is false), inside a skipped `describe`, or left out by a `.only` in the file;
 * - a test that skips itself at run time (`(cond ? it : it.skip)(…)`, `const onDisk = mounted ?
 *   describe : describe.skip`) may be cited only with where it runs right after the citation, in
 *   the form `(runs only …)`, e.g. `diskFull.test.ts` › "keeps its content" (runs only as root);
 * - cite several tests as several citations, e.g. `a.test.ts` › "one"; `b.test.ts` › "two".
 *
 * Run by test/package/readme-claims.test.ts (so `npm test` fails on a row without a running test), or
 * on its own: `node -r ts-node/register/transpile-only scripts/readme/claims.ts`.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

import { type TestCase, testCases } from './testCases';

export { testCases, testTitles } from './testCases';

export const CLAIM_TABLES = ['Reliability', 'Bad input and what you see'] as const;

export interface ClaimRow {
	table: string;
	/** 1-based line in the README. */
	line: number;
	claim: string;
	proof: string;
}

export interface Citation {
	file: string;
	title: string;
	/** The `(runs only …)` note after the citation, for a test that skips itself at run time. */
	runsOnly?: string;
}

/** Shorter quotes than this must be a whole title: "e" would match nearly any test. */
export const MIN_CITATION = 12;

/** Splits a Markdown table row into its cells; `\|` and a `|` inside backticks stay in the cell. */
function cellsOf(row: string): string[] {
	const cells: string[] = [];
	let cell = '';
	let inCode = false;
	const text = row.trim().replace(/^\|/, '').replace(/\|$/, '');
	for (let i = 0; i < text.length; i++) {
		const char = text[i];
		if (char === '\\' && text[i + 1] === '|') {
			cell += '|';
			i++;
		} else if (char === '`') {
			inCode = !inCode;
			cell += char;
		} else if (char === '|' && !inCode) {
			cells.push(cell.trim());
			cell = '';
		} else cell += char;
	}
	cells.push(cell.trim());
	return cells;
}

/** The body rows of each claim table (header and separator left out), or a problem when a table is missing. */
export function parseClaimTables(markdown: string): { rows: ClaimRow[]; problems: string[] } {
	const lines = markdown.split('\n');
	const rows: ClaimRow[] = [];
	const problems: string[] = [];
	for (const table of CLAIM_TABLES) {
		const start = lines.findIndex((line) => line.trim() === `## ${table}`);
		if (start === -1) {
			problems.push(`README.md has no "## ${table}" section: the claims check needs its table.`);
			continue;
		}
		let bodyRows = 0;
		let seenHeader = false;
		for (let index = start + 1; index < lines.length && !/^#{1,2} /.test(lines[index]); index++) {
			const line = lines[index];
			if (!line.trim().startsWith('|')) {
				if (seenHeader && bodyRows > 0) break;
				continue;
			}
			const cells = cellsOf(line);
			if (!seenHeader) {
				seenHeader = true;
				continue;
			}
			if (cells.every((cell) => /^:?-+:?$/.test(cell))) continue;
			bodyRows++;
			rows.push({ table, line: index + 1, claim: cells[0], proof: cells.length > 1 ? cells[cells.length - 1] : '' });
		}
		if (bodyRows === 0) problems.push(`The "## ${table}" section of README.md has no table rows.`);
	}
	return { rows, problems };
}

/** The citations of one cell. */
export function citationsIn(cell: string): Citation[] {
	return [...cell.matchAll(/`([^`\s]+\.test\.ts)`\s*›\s*"([^"]+)"(?:\s*\((runs only [^)]+)\))?/g)].map((match) => ({
		file: match[1],
		title: match[2],
		...(match[3] ? { runsOnly: match[3] } : {}),
	}));
}

function testFilesUnder(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFilesUnder(path);
		return entry.name.endsWith('.test.ts') ? [path] : [];
	});
}

export interface ClaimsInput {
	readme: string;
	/** Test files by path relative to test/ with `/` separators, e.g. `node/upload.test.ts`. */
	testFiles: Record<string, string>;
}

/** What is wrong with one citation of the tests of test/`path`, or undefined. */
function citationProblem({ title, runsOnly }: Citation, path: string, tests: TestCase[]): string | undefined {
	// A quote that is a whole title names that test, even when longer titles contain it too.
	const exact = tests.filter((test) => test.title === title);
	const matches = exact.length > 0 ? exact : tests.filter((test) => test.title.includes(title));
	const cited = `cites "${title}" in test/${path}`;
	if (matches.length === 0)
		return `${cited}, but no it()/test() title there contains it. Copy the text from the test's title (a describe title, a comment or a string does not count).`;
	if (title.length < MIN_CITATION && exact.length === 0)
		return `${cited}, which is too short to name one test (${matches.length} title(s) contain it). Quote the whole title or at least ${MIN_CITATION} characters of it.`;
	const titles = new Set(matches.map((test) => test.title));
	if (titles.size > 1)
		return `${cited}, which ${titles.size} different titles there contain. Quote enough of the title to name one test.`;
	const idle = matches.find((test) => test.run !== 'runs' && test.run !== 'conditional');
	if (idle) {
		const reason = {
			skipped: `is skipped (${idle.why})`,
			todo: `is only a todo (${idle.why})`,
			failing: `is marked ${idle.why}, so it passes when the claim is false`,
		}[idle.run as 'skipped' | 'todo' | 'failing'];
		return `${cited}, but the test at line ${idle.line} ${reason}: it proves nothing. Make it run, or cite a test that runs.`;
	}
	const conditional = matches.find((test) => test.run === 'conditional');
	if (conditional && !runsOnly)
		return `${cited}, but the test at line ${conditional.line} skips itself at run time (${conditional.why}). Say where it runs right after the citation, e.g. \`${path.split('/').pop()}\` › "${title}" (runs only where …), or cite a test that always runs.`;
	return undefined;
}

const FORMAT = '`fileName.test.ts` › "test title or a distinctive part of it"';

/** Every problem with the claim tables, each saying which row, what is wrong and how to fix it. */
export function checkClaims({ readme, testFiles }: ClaimsInput): string[] {
	const { rows, problems } = parseClaimTables(readme);
	const testsOf = new Map<string, TestCase[]>();
	for (const row of rows) {
		const where = `README.md:${row.line} ("## ${row.table}", row "${row.claim.slice(0, 60)}")`;
		const citations = citationsIn(row.proof);
		if (citations.length === 0) {
			problems.push(
				`${where} names no test. Add ${FORMAT} to its right-hand cell, naming a test that fails if the claim breaks; a claim no test proves gets a test or goes.`,
			);
			continue;
		}
		for (const { file, title, runsOnly } of citations) {
			const found = Object.keys(testFiles).filter((path) => path === file || path.endsWith(`/${file}`));
			if (found.length === 0) {
				problems.push(
					`${where} cites \`${file}\`, but there is no such file under test/. Check the file name (with .test.ts).`,
				);
				continue;
			}
			if (found.length > 1) {
				problems.push(
					`${where} cites \`${file}\`, which is ambiguous (${found.join(', ')}). Give the folder too, e.g. \`${found[0]}\`.`,
				);
				continue;
			}
			const [path] = found;
			if (!testsOf.has(path)) testsOf.set(path, testCases(testFiles[path], path));
			const problem = citationProblem({ file, title, runsOnly }, path, testsOf.get(path)!);
			if (problem) problems.push(`${where} ${problem}`);
		}
	}
	return problems;
}

/** The check on this repository's README.md and test/ folder. */
export function checkRepository(root = resolve(__dirname, '..', '..')): string[] {
	const testDir = join(root, 'test');
	const testFiles: Record<string, string> = {};
	for (const path of testFilesUnder(testDir)) {
		testFiles[relative(testDir, path).split(sep).join('/')] = readFileSync(path, 'utf8');
	}
	return checkClaims({ readme: readFileSync(join(root, 'README.md'), 'utf8'), testFiles });
}

if (require.main === module) {
	const problems = checkRepository();
	for (const problem of problems) console.error(problem);
	if (problems.length > 0) process.exitCode = 1;
	else console.log('README claims: every row names a test that exists and runs.');
}
