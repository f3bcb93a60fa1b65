/**
 * `npm run test:queue`: the end-to-end tests of test/queue, in n8n queue mode (PostgreSQL, Redis,
 * a main and two workers). Plain `jest` leaves test/queue out (jest.config.js), so `npm test`
 * runs on machines without PostgreSQL and Redis.
 *
 *   node -r ts-node/register/transpile-only scripts/queue/run.ts [extra jest arguments]
 */
import { ensureRuntime } from '../real-n8n/install';
import { buildAndJest } from '../real-n8n/process';
import { PROFILES } from '../real-n8n/profiles';
import { INSTALL_HINT, postgresBinDir } from './postgres';
import { redisInstalled } from './redis';

async function main(): Promise<number> {
	const missing = [postgresBinDir() ? undefined : 'PostgreSQL', redisInstalled() ? undefined : 'Redis'].filter(Boolean);
	if (missing.length > 0) {
		console.error(`test:queue: ${missing.join(' and ')} not installed. On Debian or Ubuntu:\n  ${INSTALL_HINT}`);
		return 1;
	}
	const profile = PROFILES.current;
	console.log(`test:queue: n8n ${profile.n8nVersion} in queue mode`);
	await ensureRuntime(profile, (line) => console.log(line));
	// One stack at a time: each is three n8n processes.
	return await buildAndJest([
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
