/**
 * Before a release is published: the pushed tag must be `v` + package.json's version, and
 * CHANGELOG.md must have a heading for that version that no longer says "unreleased".
 *
 *   node -r ts-node/register/transpile-only scripts/release/check.ts v1.2.3
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function releaseProblems(tag: string, version: string, changelog: string): string[] {
	const problems: string[] = [];
	if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version))
		problems.push(`package.json's version "${version}" is not a semantic version`);
	if (tag !== `v${version}`)
		problems.push(`tag "${tag}" does not match package.json's version: expected "v${version}"`);
	// "## 1.2.3", "## [1.2.3]", "## 1.2.3 — 2026-11-23", "## v1.2.3 (2026-11-23)"
	const heading = new RegExp(`^##\\s+\\[?v?${escape(version)}\\]?(?=\\s|$).*$`, 'm').exec(changelog);
	if (!heading) problems.push(`CHANGELOG.md has no "## ${version}" heading`);
	else if (/unreleased/i.test(heading[0]))
		problems.push(`CHANGELOG.md still calls ${version} unreleased: "${heading[0].trim()}"`);
	return problems;
}

if (require.main === module) {
	const root = path.resolve(__dirname, '..', '..');
	const tag = process.argv[2] ?? process.env.GITHUB_REF_NAME ?? '';
	const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
	const problems = releaseProblems(tag, version, readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8'));
	if (problems.length) {
		console.error(`release check: FAILED\n${problems.map((p) => `  - ${p}`).join('\n')}`);
		process.exit(1);
	}
	console.log(`release check: tag ${tag} matches package.json ${version}, and CHANGELOG.md has it`);
}
