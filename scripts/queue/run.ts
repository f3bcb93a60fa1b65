/**
 * `npm run test:queue`: the end-to-end tests of test/queue, in n8n queue mode (PostgreSQL, Redis,
 * a main and two workers). Plain `jest` leaves test/queue out (jest.config.js), so `npm test`
 * runs on machines without PostgreSQL and Redis.
 *
 *   node -r ts-node/register/transpile-only scripts/queue/run.ts [extra jest arguments]
 */
import { jestOnProfile } from '../real-n8n/process';
import { PROFILES } from '../real-n8n/profiles';
import { requireQueueServices } from './stack';

jestOnProfile({
	label: 'test:queue',
	profile: PROFILES.current,
	what: 'in queue mode',
	check: requireQueueServices,
	// One stack at a time: each is three n8n processes. fetch keeps idle connections to the
	// stopped n8n open for a while (--forceExit); nothing else is left.
	args: [
		'--runInBand',
		'--forceExit',
		'--testPathIgnorePatterns',
		'/node_modules/',
		'--',
		'test/queue',
		...process.argv.slice(2),
	],
});
