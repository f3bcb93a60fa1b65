/** The release workflow's gate before `npm publish` (scripts/release/check.ts). */
import { releaseProblems } from '../../scripts/release/check';

const CHANGELOG = `# Changelog

## Unreleased

- Something new.

## 1.2.0 — 2026-11-23

- Released things.

## 1.1.0 — unreleased

- Never released.
`;

it('passes a tag equal to v + the version with a dated CHANGELOG heading', () => {
	expect(releaseProblems('v1.2.0', '1.2.0', CHANGELOG)).toEqual([]);
	expect(releaseProblems('v1.2.0', '1.2.0', '## [1.2.0] (2026-11-23)\n')).toEqual([]);
});

it('fails when the tag and package.json disagree', () => {
	expect(releaseProblems('v1.2.1', '1.2.0', CHANGELOG)).toEqual([
		'tag "v1.2.1" does not match package.json\'s version: expected "v1.2.0"',
	]);
	expect(releaseProblems('1.2.0', '1.2.0', CHANGELOG)).toEqual([
		'tag "1.2.0" does not match package.json\'s version: expected "v1.2.0"',
	]);
});

it('fails when CHANGELOG has no heading for the version, or still calls it unreleased', () => {
	expect(releaseProblems('v1.3.0', '1.3.0', CHANGELOG)).toEqual(['CHANGELOG.md has no "## 1.3.0" heading']);
	// 1.2.0 must not be found inside "1.2.0-beta" or "11.2.0".
	expect(releaseProblems('v1.2.0', '1.2.0', '## 1.2.0-beta.1\n## 11.2.0\n')).toEqual([
		'CHANGELOG.md has no "## 1.2.0" heading',
	]);
	expect(releaseProblems('v1.1.0', '1.1.0', CHANGELOG)).toEqual([
		'CHANGELOG.md still calls 1.1.0 unreleased: "## 1.1.0 — unreleased"',
	]);
});
