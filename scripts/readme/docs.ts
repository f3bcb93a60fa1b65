/**
 * The docs stay readable and their links work: README.md is the users' page (short, narrow, in
 * the order of n8n's community-node README template), and every relative link of README.md,
 * docs/*.md, CONTRIBUTING.md and examples/README.md points at a file, and at a heading of it,
 * that exist. Run by test/package/docs.test.ts.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, posix, resolve } from 'node:path';

export const repositoryRoot = resolve(__dirname, '..', '..');
const README_MAX_LINES = 400;
const MAX_LINE = 200;

/** n8n's README template for community nodes, as the project's own @n8n/node-cli scaffolds it. */
export const TEMPLATE_README = join(
	repositoryRoot,
	'node_modules/@n8n/node-cli/dist/template/templates/programmatic/example/template/README.md',
);

/** The `## ` sections of a Markdown page outside code blocks, in order. */
export function sectionsOf(markdown: string): string[] {
	return markdownLines(markdown)
		.filter(({ line, code }) => !code && /^## /.test(line))
		.map(({ line }) => line.slice(3).trim());
}

/** The template's sections, in its order: read from the installed template, so the check follows it. */
export const TEMPLATE_SECTIONS: readonly string[] = sectionsOf(readFileSync(TEMPLATE_README, 'utf8'));

/** Each line with whether it is inside a fenced code block (the fence lines count as inside). */
export function markdownLines(markdown: string): { line: string; number: number; code: boolean }[] {
	let fence: string | undefined;
	return markdown.split('\n').map((line, index) => {
		const opener = /^\s*(```|~~~)/.exec(line)?.[1];
		const code = fence !== undefined || opener !== undefined;
		if (opener && fence === undefined) fence = opener;
		else if (opener && opener === fence) fence = undefined;
		return { line, number: index + 1, code };
	});
}

/** Lines longer than `max` characters outside code blocks, as `file:line (n characters)`. */
export function longLines(markdown: string, file: string, max = MAX_LINE): string[] {
	return markdownLines(markdown)
		.filter(({ line, code }) => !code && [...line].length > max)
		.map(
			({ line, number }) => `${file}:${number} has ${[...line].length} characters (at most ${max} outside code blocks)`,
		);
}

/** What is wrong with README.md as the users' page. */
export function readmeProblems(readme: string): string[] {
	const problems: string[] = [];
	const lineCount = readme.replace(/\n$/, '').split('\n').length;
	if (lineCount > README_MAX_LINES)
		problems.push(
			`README.md has ${lineCount} lines (at most ${README_MAX_LINES}): move reference to docs/ and link it.`,
		);
	problems.push(...longLines(readme, 'README.md'));
	const found = sectionsOf(readme);
	const positions = TEMPLATE_SECTIONS.map((name) => found.indexOf(name));
	TEMPLATE_SECTIONS.forEach((name, i) => {
		if (positions[i] === -1) problems.push(`README.md has no "## ${name}" section (n8n's README template).`);
	});
	const present = positions.filter((position) => position !== -1);
	if (present.some((position, i) => i > 0 && position < present[i - 1]))
		problems.push(
			`README.md's sections are out of order: n8n's README template has ${TEMPLATE_SECTIONS.join(', ')}; found ${found.join(', ')}.`,
		);
	return problems;
}

/**
 * The anchor GitHub gives a heading: lower case, Markdown marks and punctuation dropped, spaces
 * made hyphens; a repeated heading gets -1, -2, … .
 */
export function anchors(markdown: string): Set<string> {
	const seen = new Map<string, number>();
	const result = new Set<string>();
	for (const { line, code } of markdownLines(markdown)) {
		const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
		if (code || !heading) continue;
		const text = heading[1].replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1');
		const base = text
			.toLowerCase()
			.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
			.replace(/ /g, '-');
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		result.add(count === 0 ? base : `${base}-${count}`);
	}
	return result;
}

/** The targets of the Markdown links and images outside code (blocks and inline), with their lines. */
export function links(markdown: string): { target: string; line: number }[] {
	return markdownLines(markdown).flatMap(({ line, number, code }) => {
		if (code) return [];
		const text = line.replace(/`[^`]*`/g, '');
		const found = text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g);
		return [...found].map(([, target]) => ({ target, line: number }));
	});
}

/** What is wrong with a link of `file` (a path relative to `root`), or undefined. */
function linkProblem(root: string, file: string, { target, line }: { target: string; line: number }) {
	const where = `${file}:${line} links to ${target}`;
	if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined;
	const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
	const targetFile = pathPart === '' ? file : posix.join(posix.dirname(file), decodeURIComponent(pathPart));
	const absolute = resolve(root, targetFile);
	if (!existsSync(absolute)) return `${where}, but ${targetFile} does not exist.`;
	if (anchor === undefined) return undefined;
	if (!targetFile.endsWith('.md') || statSync(absolute).isDirectory())
		return `${where}: an anchor into ${targetFile}, which is not a Markdown page.`;
	if (!anchors(readFileSync(absolute, 'utf8')).has(anchor))
		return `${where}, but ${targetFile} has no heading with the anchor #${anchor}.`;
	return undefined;
}

/** Every relative link of `file` (a path relative to `root`) that does not resolve. */
export function brokenLinks(root: string, file: string): string[] {
	const problems = links(readFileSync(join(root, file), 'utf8')).map((link) => linkProblem(root, file, link));
	return problems.filter((problem) => problem !== undefined);
}

/** The pages whose links are checked: README.md, docs/*.md, CONTRIBUTING.md, examples/README.md. */
export function docPages(root: string): string[] {
	const docs = readdirSync(join(root, 'docs'))
		.filter((name) => name.endsWith('.md'))
		.sort()
		.map((name) => `docs/${name}`);
	return ['README.md', 'CONTRIBUTING.md', 'examples/README.md', ...docs];
}

/** Example workflows that examples/README.md does not link. */
export function unlistedExamples(root: string): string[] {
	const readme = readFileSync(join(root, 'examples', 'README.md'), 'utf8');
	const linked = new Set(links(readme).map(({ target }) => posix.normalize(target.split('#')[0])));
	return readdirSync(join(root, 'examples', 'workflows'))
		.filter((name) => name.endsWith('.json') && !linked.has(`workflows/${name}`))
		.map((name) => `examples/README.md does not list examples/workflows/${name}: describe it as it runs.`);
}
