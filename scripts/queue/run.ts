/**
 * `npm run test:queue`: the end-to-end tests of test/queue, in n8n queue mode (PostgreSQL, Redis,
 * a main and two workers). Plain `jest` leaves test/queue out (jest.config.js), so `npm test`
 * runs on machines without PostgreSQL and Redis.
 *
 *   node -r ts-node/register/transpile-only scripts/queue/run.ts [extra jest arguments]
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';

import { ensureRuntime } from '../real-n8n/install';
import { PACKAGE_ROOT, PROFILES } from '../real-n8n/profiles';
import { INSTALL_HINT, postgresBinDir } from './postgres';
import { redisInstalled } from './redis';

function run(command: string, args: string[]): Promise<number> {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, { cwd: PACKAGE_ROOT, stdio: 'inherit' });
		child.once('error', reject);
		child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
	});
}

async function main(): Promise<number> {
	const missing = [postgresBinDir() ? undefined : 'PostgreSQL', redisInstalled() ? undefined : 'Redis'].filter(Boolean);
	if (missing.length > 0) {
		console.error(`test:queue: ${missing.join(' and ')} not installed. On Debian or Ubuntu:\n  ${INSTALL_HINT}`);
		return 1;
	}
	const profile = PROFILES.current;
	console.log(`test:queue: n8n ${profile.n8nVersion} in queue mode`);
	await ensureRuntime(profile, (line) => console.log(line));
	if (!existsSync(path.join(PACKAGE_ROOT, 'dist', 'nodes', 'FileStorage', 'FileStorage.node.js'))) {
		const built = await run('npm', ['run', 'build']);
		if (built !== 0) return built;
	}
	const jest = require.resolve('jest/bin/jest');
	// One stack at a time: each is three n8n processes.
	return await run(process.execPath, [
		jest,
		'--runInBand',
		// fetch keeps idle connections to the stopped n8n open for a while; nothing else is left.
		'--forceExit',
		'--testPathIgnorePatterns',
		'/node_modules/',
		'--',
		'test/queue',
		...process.argv.slice(2),
	]);
}

main().then(
	(code) => process.exit(code),
	(err: Error) => {
		console.error(`test:queue: ${err.message}`);
		process.exit(1);
	},
);
