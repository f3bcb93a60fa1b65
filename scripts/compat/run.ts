/**
 * `npm run compat`: the end-to-end tests of test/e2e once more, in the previous major line of n8n
 * on the Node.js it supports (see the `compat` profile in scripts/real-n8n/profiles.ts). The
 * runtime is installed on first use into .cache/real-n8n/.
 *
 *   node -r ts-node/register/transpile-only scripts/compat/run.ts [extra jest arguments]
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';

import { ensureRuntime } from '../real-n8n/install';
import { PACKAGE_ROOT, PROFILES } from '../real-n8n/profiles';

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, { cwd: PACKAGE_ROOT, env, stdio: 'inherit' });
		child.once('error', reject);
		child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
	});
}

async function main(): Promise<number> {
	const profile = PROFILES.compat;
	console.log(`compat: n8n ${profile.n8nVersion} on Node.js ${profile.nodeVersion}`);
	await ensureRuntime(profile, (line) => console.log(line));
	if (!existsSync(path.join(PACKAGE_ROOT, 'dist', 'nodes', 'FileStorage', 'FileStorage.node.js'))) {
		const built = await run('npm', ['run', 'build'], process.env);
		if (built !== 0) return built;
	}
	const jest = require.resolve('jest/bin/jest');
	return await run(process.execPath, [jest, 'test/e2e', ...process.argv.slice(2)], {
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
