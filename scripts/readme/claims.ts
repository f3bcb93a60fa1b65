/**
 * Every claim has its test: the promise tables of docs/reliability.md and docs/bad-input.md
 * promise behaviour, and each row must name a test that would fail if the promise broke.
 *
 * A promise table is any Markdown table on those pages whose last column is headed `tests`
 * (`| promise | how it is tested | tests |`, `| input | what you see | tests |`); a page may hold
 * several, one per section, so new rows and new sections need no change here. Each page must hold
 * at least one with rows. A row whose first cell is empty continues the promise above it: one
 * citation per row keeps the rows short.
 *
 * Citation format, in the `tests` cell of a row (one or more):
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

/** The pages whose promise tables are checked, relative to the repository root. */
export const CLAIM_PAGES = ['docs/reliability.md', 'docs/bad-input.md'] as const;

/** The header of a promise table's last column. */
export const PROOF_COLUMN = 'tests';

export interface ClaimRow {
	/** The page, e.g. `docs/reliability.md`. */
	page: string;
	/** The heading the table is under, as written (`### Uploads`). */
	table: string;
	/** 1-based line in the page. */
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

const isSeparator = (cells: string[]) => cells.every((cell) => /^:?-+:?$/.test(cell));

/** The body rows of every promise table of one page, or a problem when the page has none with rows. */
export function parseClaimTables(markdown: string, page: string): { rows: ClaimRow[]; problems: string[] } {
	const lines = markdown.split('\n');
	const rows: ClaimRow[] = [];
	let heading = '(top of the page)';
	let inFence = false;
	// Whether the table being read is a promise table; undefined outside a table.
	let promiseTable: boolean | undefined;
	let previousClaim = '';
	lines.forEach((line, index) => {
		if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
		if (inFence) return;
		if (/^#{1,6} /.test(line)) heading = line.trim();
		if (!line.trim().startsWith('|')) {
			promiseTable = undefined;
			return;
		}
		const cells = cellsOf(line);
		if (promiseTable === undefined) {
			promiseTable = cells.length > 1 && cells[cells.length - 1].toLowerCase() === PROOF_COLUMN;
			return;
		}
		if (!promiseTable || isSeparator(cells)) {
			if (promiseTable) previousClaim = '';
			return;
		}
		// A row whose first cell is empty carries one more citation of the promise above it.
		const claim = cells[0] || previousClaim;
		previousClaim = claim;
		rows.push({ page, table: heading, line: index + 1, claim, proof: cells[cells.length - 1] });
	});
	const problems =
		rows.length === 0
			? [
					`${page} has no promise table with rows (a table whose last column is headed "${PROOF_COLUMN}"): the claims check needs one.`,
				]
			: [];
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
	/** The text of each page of CLAIM_PAGES, by its path. */
	pages: Record<string, string>;
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
export function checkClaims({ pages, testFiles }: ClaimsInput): string[] {
	const rows: ClaimRow[] = [];
	const problems: string[] = [];
	for (const page of CLAIM_PAGES) {
		if (pages[page] === undefined) {
			problems.push(`${page} is missing: the claims check reads its promise tables.`);
			continue;
		}
		const parsed = parseClaimTables(pages[page], page);
		rows.push(...parsed.rows);
		problems.push(...parsed.problems);
	}
	const testsOf = new Map<string, TestCase[]>();
	for (const row of rows) {
		const where = `${row.page}:${row.line} ("${row.table}", row "${row.claim.slice(0, 60)}")`;
		const citations = citationsIn(row.proof);
		if (citations.length === 0) {
			problems.push(
				`${where} names no test. Add ${FORMAT} to its "${PROOF_COLUMN}" cell, naming a test that fails if the claim breaks; a claim no test proves gets a test or goes.`,
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

/** The check on this repository's promise pages and test/ folder. */
export function checkRepository(root = resolve(__dirname, '..', '..')): string[] {
	const testDir = join(root, 'test');
	const testFiles: Record<string, string> = {};
	for (const path of testFilesUnder(testDir)) {
		testFiles[relative(testDir, path).split(sep).join('/')] = readFileSync(path, 'utf8');
	}
	const pages: Record<string, string> = {};
	for (const page of CLAIM_PAGES) {
		try {
			pages[page] = readFileSync(join(root, page), 'utf8');
		} catch {
			// Reported by checkClaims as a missing page.
		}
	}
	return checkClaims({ pages, testFiles });
}

if (require.main === module) {
	const problems = checkRepository();
	for (const problem of problems) console.error(problem);
	if (problems.length > 0) process.exitCode = 1;
	else console.log(`Promise tables (${CLAIM_PAGES.join(', ')}): every row names a test that exists and runs.`);
}
