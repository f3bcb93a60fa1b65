import { explainNpmFailure } from '../../scripts/real-n8n/npm-failure';

// The lines below are what npm 11 printed for each case on this project's machines.
const missingN8n = `npm error code ETARGET
npm error notarget No matching version found for n8n@3.0.0.
npm error notarget In most cases you or one of your dependencies are requesting a package version that doesn't exist.`;

const missingPinned = `npm error code ETARGET
npm error notarget No matching version found for @n8n/agents@0.26.2.
npm error notarget In most cases you or one of your dependencies are requesting a package version that doesn't exist.`;

const refused = `npm error code ECONNREFUSED
npm error syscall connect
npm error errno ECONNREFUSED
npm error FetchError: request to http://127.0.0.1:9/n8n failed, reason: connect ECONNREFUSED 127.0.0.1:9`;

const noDns = `npm error code ENOTFOUND
npm error syscall getaddrinfo
npm error errno ENOTFOUND
npm error network request to https://registry.example/n8n failed, reason: getaddrinfo ENOTFOUND registry.example`;

describe('explainNpmFailure: a missing version is told apart from a broken network', () => {
	it('an n8n version that is not published is "not on the npm registry"', () => {
		const failure = explainNpmFailure(missingN8n, '3.0.0');
		expect(failure.kind).toBe('version-missing');
		expect(failure.message).toContain('n8n 3.0.0 is not on the npm registry');
	});

	it('a release that pins an unpublished package names that package and is not a network fault', () => {
		const failure = explainNpmFailure(missingPinned, '2.41.3');
		expect(failure.kind).toBe('pinned-package-missing');
		expect(failure.message).toContain('@n8n/agents@0.26.2');
		expect(failure.message).not.toContain('could not be reached');
	});

	it('a refused connection or a failed DNS lookup is a network fault, not a missing version', () => {
		for (const output of [refused, noDns]) {
			const failure = explainNpmFailure(output, '2.41.1');
			expect(failure.kind).toBe('network');
			expect(failure.message).toContain('could not be reached');
		}
		expect(explainNpmFailure(noDns, '2.41.1').message).toContain('ENOTFOUND');
	});

	it('anything else is reported as a plain failure', () => {
		expect(explainNpmFailure('npm error code EACCES', '2.41.1').kind).toBe('other');
	});
});
