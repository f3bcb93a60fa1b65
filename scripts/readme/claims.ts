/**
 * Every claim has its test: each row of the promise tables of docs/reliability.md and
 * docs/bad-input.md must name a test that would fail if the promise broke.
 *
 * A promise table is any Markdown table on those pages whose last column is headed `tests`
 * (`| promise | how it is tested | tests |`, `| input | what you see | tests |`); a page may hold
 * several, one per section, and must hold at least one with rows. A row whose first cell is empty
 * continues the promise above it, so each row holds one citation and stays short.
 *
 * The `tests` cell holds one or more citations: `fileName.test.ts` › "exact title or a distinctive part of it".
 * - the file is looked up under test/ by its name; when two files share it, give the folder too
 *   (`node/upload.test.ts`);
 * - the quote must occur, as written, in the title of an `it(…)` / `test(…)` of that file (the
 *   title of an `it.each(…)(…)` is its template, `%s` and all), not of a `describe`, a comment or a
 *   string, and may not contain a double quote;
 * - it is the whole title or at least MIN_CITATION characters of it, and no other title contains it;
 * - every test it matches must run: not `.skip`/`xit`, `.todo`, `.failing` (which passes when the
 *   claim is false), inside a skipped `describe`, or left out by a `.only` in the file;
 * - a test that skips itself at run time (`(cond ? it : it.skip)(…)`, `const onDisk = mounted ?
 *   describe : describe.skip`) is cited with where it runs right after, as `(runs only …)`, e.g.
 *   `diskFull.test.ts` › "keeps its content" (runs only as root).
 *
 * Run by test/package/readme-claims.test.ts (so `npm test` fails on a row without a running test), or
 * on its own: `node -r ts-node/register/transpile-only scripts/readme/claims.ts`.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, sep } from 'node:path';

import { markdownLines, repositoryRoot } from './docs';
import { type TestCase, testCases } from './testCases';

const CLAIM_PAGES = ['docs/reliability.md', 'docs/bad-input.md'];
const PROOF_COLUMN = 'tests';
/** Shorter quotes than this must be a whole title: "e" would match nearly any test. */
const MIN_CITATION = 12;
const FORMAT = '`fileName.test.ts` › "test title or a distinctive part of it"';

/** Splits a Markdown table row into its cells; `\|` and a `|` inside backticks stay in the cell. */
function cellsOf(row: string): string[] {
	const inner = row.trim().replace(/^\|/, '').replace(/\|$/, '');
	const masked = inner.replace(/\\\||`[^`]*`/g, (part) => part.replace(/\\?\|/g, '\0'));
	return masked.split('|').map((cell) => cell.replaceAll('\0', '|').trim());
}

/** The body rows of every promise table of one page, with the heading each is under and its 1-based line. */
function claimRows(markdown: string, page: string) {
	const rows: { page: string; table: string; line: number; claim: string; proof: string }[] = [];
	let heading = '(top of the page)';
	// Whether the table being read is a promise table; undefined outside a table.
	let promiseTable: boolean | undefined;
	let previousClaim = '';
	for (const { line, number, code } of markdownLines(markdown)) {
		if (!code && /^#{1,6} /.test(line)) heading = line.trim();
		if (code || !line.trim().startsWith('|')) {
			promiseTable = undefined;
			continue;
		}
		const cells = cellsOf(line);
		if (promiseTable === undefined) {
			promiseTable = cells.length > 1 && cells[cells.length - 1].toLowerCase() === PROOF_COLUMN;
		} else if (promiseTable && cells.every((cell) => /^:?-+:?$/.test(cell))) {
			previousClaim = '';
		} else if (promiseTable) {
			// A row whose first cell is empty carries one more citation of the promise above it.
			previousClaim = cells[0] || previousClaim;
			rows.push({ page, table: heading, line: number, claim: previousClaim, proof: cells[cells.length - 1] });
		}
	}
	return rows;
}

/** The citations of one cell; `runsOnly` is the `(runs only …)` note after one, if any. */
export function citationsIn(cell: string) {
	return [...cell.matchAll(/`([^`\s]+\.test\.ts)`\s*›\s*"([^"]+)"(?:\s*\((runs only [^)]+)\))?/g)].map(
		([, file, title, runsOnly]) => ({ file, title, runsOnly: runsOnly as string | undefined }),
	);
}

/** What is wrong with one citation of the tests of test/`path`, or undefined. */
function citationProblem(title: string, runsOnly: string | undefined, path: string, tests: TestCase[]) {
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

/**
 * Every problem with the claim tables, each saying which row, what is wrong and how to fix it.
 * `pages`: the text of each promise page by its path; `testFiles`: the test files by their path
 * under test/ with `/` separators, e.g. `node/upload.test.ts`.
 */
export function checkClaims({ pages, testFiles }: Record<'pages' | 'testFiles', Record<string, string>>): string[] {
	const problems: string[] = [];
	const rows = CLAIM_PAGES.flatMap((page) => {
		if (pages[page] === undefined) {
			problems.push(`${page} is missing: the claims check reads its promise tables.`);
			return [];
		}
		const found = claimRows(pages[page], page);
		if (found.length === 0)
			problems.push(
				`${page} has no promise table with rows (a table whose last column is headed "${PROOF_COLUMN}"): the claims check needs one.`,
			);
		return found;
	});
	const testsOf = new Map<string, TestCase[]>();
	for (const row of rows) {
		const where = `${row.page}:${row.line} ("${row.table}", row "${row.claim.slice(0, 60)}")`;
		const citations = citationsIn(row.proof);
		if (citations.length === 0)
			problems.push(
				`${where} names no test. Add ${FORMAT} to its "${PROOF_COLUMN}" cell, naming a test that fails if the claim breaks; a claim no test proves gets a test or goes.`,
			);
		for (const { file, title, runsOnly } of citations) {
			const found = Object.keys(testFiles).filter((path) => path === file || path.endsWith(`/${file}`));
			const [path] = found;
			if (found.length === 1 && !testsOf.has(path)) testsOf.set(path, testCases(testFiles[path], path));
			const problem =
				found.length === 0
					? `cites \`${file}\`, but there is no such file under test/. Check the file name (with .test.ts).`
					: found.length > 1
						? `cites \`${file}\`, which is ambiguous (${found.join(', ')}). Give the folder too, e.g. \`${path}\`.`
						: citationProblem(title, runsOnly, path, testsOf.get(path)!);
			if (problem) problems.push(`${where} ${problem}`);
		}
	}
	return problems;
}

/** The check on this repository's promise pages and test/ folder. */
export function checkRepository(root = repositoryRoot): string[] {
	const read = (path: string) => readFileSync(join(root, path), 'utf8');
	const tests = readdirSync(join(root, 'test'), { recursive: true })
		.map(String)
		.filter((path) => path.endsWith('.test.ts') && !path.split(sep).includes('node_modules'));
	const pages = CLAIM_PAGES.filter((page) => existsSync(join(root, page)));
	return checkClaims({
		pages: Object.fromEntries(pages.map((page) => [page, read(page)])),
		testFiles: Object.fromEntries(tests.map((path) => [path.split(sep).join('/'), read(join('test', path))])),
	});
}

if (require.main === module) {
	const problems = checkRepository();
	for (const problem of problems) console.error(problem);
	if (problems.length > 0) process.exitCode = 1;
	else console.log(`Promise tables (${CLAIM_PAGES.join(', ')}): every row names a test that exists and runs.`);
}
