import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const NODES = join(__dirname, '..', '..', 'nodes');

function sourceFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return sourceFiles(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

/** Files under nodes/ whose text matches `pattern`, as paths relative to nodes/. */
function filesMatching(pattern: RegExp): string[] {
	return sourceFiles(NODES)
		.filter((path) => pattern.test(readFileSync(path, 'utf8')))
		.map((path) => relative(NODES, path).split('\\').join('/'));
}

describe('one way to send a request (issue 31)', () => {
	it('only transport/attempts.ts has an attempt loop (a loop over attempts, a backoff or Retry-After wait)', () => {
		expect(filesMatching(/for\s*\(\s*let\s+attempt\b|\bbackoffMs\s*\(|\bretryWaitMs\s*\(/)).toEqual([
			'FileStorage/transport/attempts.ts',
		]);
	});

	it('only transport/networkErrors.ts decides which network error codes are retried', () => {
		expect(filesMatching(/new Set\(\[[^\]]*'ECONNRESET'/)).toEqual(['FileStorage/transport/networkErrors.ts']);
	});

	it('errors carry one flag for "the API itself answered"', () => {
		expect(filesMatching(/apiErrorAnswer\s*[=!]/)).toEqual([]);
	});
});
