/**
 * `npm run compat`: the end-to-end tests of test/e2e once more, in the previous major line of n8n
 * on the Node.js it supports (see the `compat` profile in scripts/real-n8n/profiles.ts). The
 * runtime is installed on first use into .cache/real-n8n/.
 *
 *   node -r ts-node/register/transpile-only scripts/compat/run.ts [extra jest arguments]
 */
import { ensureRuntime } from '../real-n8n/install';
import { buildAndJest } from '../real-n8n/process';
import { PROFILES } from '../real-n8n/profiles';

async function main(): Promise<number> {
	const profile = PROFILES.compat;
	console.log(`compat: n8n ${profile.n8nVersion} on Node.js ${profile.nodeVersion}`);
	await ensureRuntime(profile, (line) => console.log(line));
	return await buildAndJest(['test/e2e', ...process.argv.slice(2)], {
		// The 2 GiB transfer is measured on n8n 2.x in `npm test`; on 1.x the same paths run at 256 MiB.
		E2E_LARGE_BYTES: String(256 * 1024 * 1024),
		...process.env,
		REAL_N8N_PROFILE: profile.name,
	});
}

main().then(
	(code) => process.exit(code),
	(err: Error) => {
		console.error(`compat: ${err.message}`);
		process.exit(1);
	},
);
