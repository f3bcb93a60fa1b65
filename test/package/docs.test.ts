/**
 * The docs stay readable and their links work (scripts/readme/docs.ts): first on made-up pages, so
 * the check cannot pass silently, then on this repository's README.md, docs/, CONTRIBUTING.md and
 * examples/README.md.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import {
	TEMPLATE_README,
	TEMPLATE_SECTIONS,
	anchors,
	brokenLinks,
	docPages,
	links,
	longLines,
	readmeProblems,
	repositoryRoot,
	unlistedExamples,
} from '../../scripts/readme/docs';

const TEMPLATE = [...TEMPLATE_SECTIONS];
const readmeOf = (sections: string[], extra = '') =>
	`# pkg\n\nWhat it does.\n\n${sections.map((name) => `## ${name}\n\nText.\n`).join('\n')}${extra}`;

describe('the README check, on made-up READMEs', () => {
	it("follows the order of the README template in the project's own @n8n/node-cli", () => {
		// Read here on its own: the template puts Operations before Credentials, Compatibility before Usage.
		const template = readFileSync(TEMPLATE_README, 'utf8');
		const headings = template
			.split('\n')
			.filter((line) => line.startsWith('## '))
			.map((line) => line.slice(3).trim());
		expect(headings.length).toBeGreaterThan(4);
		expect(TEMPLATE).toEqual(headings);
		expect(TEMPLATE.indexOf('Operations')).toBeLessThan(TEMPLATE.indexOf('Credentials'));
	});

	it("passes a short README with the template's sections in order", () => {
		expect(readmeProblems(readmeOf(TEMPLATE, '\n## License\n\nMIT\n'))).toEqual([]);
	});

	it('fails a README over 400 lines, naming the count', () => {
		expect(readmeProblems(readmeOf(TEMPLATE, 'line\n'.repeat(400)))).toEqual([
			expect.stringMatching(/^README\.md has 4\d\d lines \(at most 400\)/),
		]);
	});

	it('fails a line over 200 characters outside code blocks, and lets one inside a code block be', () => {
		const wide = 'x'.repeat(201);
		expect(readmeProblems(readmeOf(TEMPLATE, `\n${wide}\n\n\`\`\`sh\n${wide}\n\`\`\`\n`))).toEqual([
			expect.stringMatching(/^README\.md:\d+ has 201 characters \(at most 200 outside code blocks\)$/),
		]);
	});

	it('fails a missing section and sections out of order', () => {
		expect(readmeProblems(readmeOf(TEMPLATE.filter((name) => name !== 'Usage')))).toEqual([
			'README.md has no "## Usage" section (n8n\'s README template).',
		]);
		const swapped = [...TEMPLATE];
		[swapped[1], swapped[2]] = [swapped[2], swapped[1]];
		expect(readmeProblems(readmeOf(swapped))).toEqual([
			expect.stringMatching(/^README\.md's sections are out of order/),
		]);
	});
});

describe('the link check, on made-up pages', () => {
	let root: string;
	const write = (file: string, text: string) => {
		mkdirSync(dirname(join(root, file)), { recursive: true });
		writeFileSync(join(root, file), text);
	};
	beforeAll(() => {
		root = mkdtempSync(join(tmpdir(), 'docs-check-'));
		write('docs/a.md', '# A page\n\n## File → Copy and File → Move\n\n## Notes\n\n## Notes\n');
		write('docs/picture.png', 'png');
	});
	afterAll(() => rmSync(root, { recursive: true, force: true }));

	it('gives headings the anchors GitHub gives them', () => {
		expect([...anchors(readFileSync(join(root, 'docs/a.md'), 'utf8'))]).toEqual([
			'a-page',
			'file--copy-and-file--move',
			'notes',
			'notes-1',
		]);
		expect([...anchors('## Running in `queue` mode (n8n 2.x)\n## [Linked](x.md) heading\n')]).toEqual([
			'running-in-queue-mode-n8n-2x',
			'linked-heading',
		]);
	});

	it('passes links to files, folders and headings that exist, and leaves web links and code alone', () => {
		write(
			'README.md',
			[
				'[a](docs/a.md) [copy](docs/a.md#file--copy-and-file--move) [second](docs/a.md#notes-1)',
				'![pic](docs/picture.png) [docs](docs/) [web](https://example.com/x.md#nope) [self](#top)',
				'`[not a link](missing.md)`',
				'```md',
				'[in a code block](missing.md)',
				'```',
				'# Top',
			].join('\n'),
		);
		expect(brokenLinks(root, 'README.md')).toEqual([]);
	});

	it('fails a missing file, a missing heading, and a relative link from a page in a folder', () => {
		write('README.md', '[gone](docs/gone.md)\n[anchor](docs/a.md#no-such-heading)\n[here](#nowhere)\n');
		write('docs/b.md', '[up](../README.md) [wrong](a.md#notes-2) [missing](../nope.md)\n');
		expect(brokenLinks(root, 'README.md')).toEqual([
			'README.md:1 links to docs/gone.md, but docs/gone.md does not exist.',
			'README.md:2 links to docs/a.md#no-such-heading, but docs/a.md has no heading with the anchor #no-such-heading.',
			'README.md:3 links to #nowhere, but README.md has no heading with the anchor #nowhere.',
		]);
		expect(brokenLinks(root, 'docs/b.md')).toEqual([
			'docs/b.md:1 links to a.md#notes-2, but docs/a.md has no heading with the anchor #notes-2.',
			'docs/b.md:1 links to ../nope.md, but nope.md does not exist.',
		]);
	});

	it('reads link targets, with titles and angle brackets', () => {
		expect(links('[a](x.md "title") ![b](<y.png>)').map(({ target }) => target)).toEqual(['x.md', 'y.png']);
	});
});

describe("this repository's docs", () => {
	it("README.md is the users' page: at most 400 lines, no line over 200 characters, the template's sections in order", () => {
		expect(readmeProblems(readFileSync(join(repositoryRoot, 'README.md'), 'utf8'))).toEqual([]);
	});

	it('README.md shows the screenshot before Installation, and the install and test commands', () => {
		const readme = readFileSync(join(repositoryRoot, 'README.md'), 'utf8');
		const installation = readme.indexOf('## Installation');
		expect(readme.indexOf('](docs/screenshots/file-storage-node.png)')).toBeGreaterThan(-1);
		expect(readme.indexOf('](docs/screenshots/file-storage-node.png)')).toBeLessThan(installation);
		expect(readme).toMatch(/^npm install\b/m);
		expect(readme).toMatch(/^npm test\b/m);
	});

	it('every relative link of README.md, docs/*.md, CONTRIBUTING.md and examples/README.md resolves', () => {
		const pages = docPages(repositoryRoot);
		expect(pages).toEqual(
			expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'examples/README.md', 'docs/reliability.md']),
		);
		expect(pages.flatMap((page) => brokenLinks(repositoryRoot, page))).toEqual([]);
	});

	it('every page keeps to 200 characters a line outside code blocks, promise tables included', () => {
		const wide = docPages(repositoryRoot).flatMap((page) =>
			longLines(readFileSync(join(repositoryRoot, page), 'utf8'), page),
		);
		expect(wide).toEqual([]);
	});

	it('examples/README.md lists every example workflow', () => {
		expect(unlistedExamples(repositoryRoot)).toEqual([]);
	});
});
