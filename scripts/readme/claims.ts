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
 *   do not count, and the title may not contain a double quote;
 * - cite several tests as several citations, e.g. `a.test.ts` › "one"; `b.test.ts` › "two".
 *
 * Run by test/package/readme-claims.test.ts (so `npm test` fails on a row without a test), or
 * on its own: `node -r ts-node/register/transpile-only scripts/readme/claims.ts`.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

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
}

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
	return [...cell.matchAll(/`([^`\s]+\.test\.ts)`\s*›\s*"([^"]+)"/g)].map((match) => ({
		file: match[1],
		title: match[2],
	}));
}

/** Skips a balanced bracket group starting at `open`; string literals inside are skipped whole. */
function skipGroup(source: string, open: number): number {
	const pairs: Record<string, string> = { '(': ')', '[': ']', '{': '}', '<': '>' };
	const closing: string[] = [];
	for (let i = open; i < source.length; i++) {
		const char = source[i];
		if (char === "'" || char === '"' || char === '`') {
			i = endOfString(source, i);
		} else if (char in pairs && (char !== '<' || i === open)) {
			closing.push(pairs[char]);
		} else if (char === closing[closing.length - 1]) {
			closing.pop();
			if (closing.length === 0) return i + 1;
		}
	}
	return source.length;
}

/** The index of the quote that closes the string literal opening at `start`. */
function endOfString(source: string, start: number): number {
	const quote = source[start];
	for (let i = start + 1; i < source.length; i++) {
		if (source[i] === '\\') i++;
		else if (source[i] === quote) return i;
	}
	return source.length;
}

function skipSpace(source: string, index: number): number {
	while (index < source.length && /\s/.test(source[index])) index++;
	return index;
}

/** The titles of the `it` / `test` calls of a test file, as written (escapes undone). */
export function testTitles(source: string): string[] {
	const titles: string[] = [];
	for (const match of source.matchAll(/(?<![\w.$])(it|test)((?:\.(?:only|skip|concurrent|failing))*)(\.each)?\b/g)) {
		let index = skipSpace(source, match.index! + match[0].length);
		if (match[3]) {
			if (source[index] === '<') index = skipSpace(source, skipGroup(source, index));
			if (source[index] !== '(') continue;
			index = skipSpace(source, skipGroup(source, index));
		}
		if (source[index] !== '(') continue;
		index = skipSpace(source, index + 1);
		const quote = source[index];
		if (quote !== "'" && quote !== '"' && quote !== '`') continue;
		const raw = source.slice(index + 1, endOfString(source, index));
		titles.push(raw.replace(/\\(.)/g, '$1'));
	}
	return titles;
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

const FORMAT = '`fileName.test.ts` › "test title or a distinctive part of it"';

/** Every problem with the claim tables, each saying which row, what is wrong and how to fix it. */
export function checkClaims({ readme, testFiles }: ClaimsInput): string[] {
	const { rows, problems } = parseClaimTables(readme);
	const titlesOf = new Map<string, string[]>();
	for (const row of rows) {
		const where = `README.md:${row.line} ("## ${row.table}", row "${row.claim.slice(0, 60)}")`;
		const citations = citationsIn(row.proof);
		if (citations.length === 0) {
			problems.push(
				`${where} names no test. Add ${FORMAT} to its right-hand cell, naming a test that fails if the claim breaks; a claim no test proves gets a test or goes.`,
			);
			continue;
		}
		for (const { file, title } of citations) {
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
			if (!titlesOf.has(path)) titlesOf.set(path, testTitles(testFiles[path]));
			if (!titlesOf.get(path)!.some((candidate) => candidate.includes(title))) {
				problems.push(
					`${where} cites "${title}" in test/${path}, but no it()/test() title there contains it. Copy the text from the test's title (a describe title does not count).`,
				);
			}
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
	else console.log('README claims: every row names a test that exists.');
}
