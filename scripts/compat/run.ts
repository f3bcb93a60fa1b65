/**
 * `npm run compat`: the end-to-end tests of test/e2e once more, in the previous major line of n8n
 * on the Node.js it supports (the `compat` profile in scripts/real-n8n/profiles.ts).
 *
 *   node -r ts-node/register/transpile-only scripts/compat/run.ts [extra jest arguments]
 */
import { jestOnProfile } from '../real-n8n/process';
import { PROFILES } from '../real-n8n/profiles';

const profile = PROFILES.compat;
jestOnProfile({
	label: 'compat',
	profile,
	what: `on Node.js ${profile.nodeVersion}`,
	args: ['test/e2e', ...process.argv.slice(2)],
	env: {
		// The 2 GiB transfer is measured on n8n 2.x in `npm test`; on 1.x the same paths run at 256 MiB.
		E2E_LARGE_BYTES: String(256 * 1024 * 1024),
		...process.env,
		REAL_N8N_PROFILE: profile.name,
	},
});
