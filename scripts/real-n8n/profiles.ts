/**
 * The real n8n builds this package is run in. Versions are exact so that a run today and a
 * run next month install the same thing; the lock files in ./locks pin the rest of the tree.
 */
import * as path from 'node:path';

export interface Profile {
	/** Name used on the command line and in REAL_N8N_PROFILE. */
	name: string;
	n8nVersion: string;
	/** Exact version of the npm package that carries the Node.js binary (node-<platform>-<arch>). */
	nodeVersion: string;
	/** npm overrides some n8n releases need to install at all. */
	overrides?: Record<string, string>;
	/** Environment every n8n process of this profile needs. */
	env?: Record<string, string>;
	/** n8n 2.x publishes workflows; 1.x activates them. */
	activation: 'publish' | 'activate';
}

export const PROFILES: Record<string, Profile> = {
	current: {
		name: 'current',
		n8nVersion: '2.41.1',
		// n8n 2.36+ refuses to start on Node < 24.
		nodeVersion: '24.21.0',
		// Its refresh task calls a public MCP server registry every start; nothing here may leave the machine.
		env: { N8N_DISABLED_MODULES: 'mcp-registry' },
		activation: 'publish',
	},
	compat: {
		name: 'compat',
		n8nVersion: '1.123.81',
		nodeVersion: '20.20.2',
		// n8n-nodes-base 1.x takes xlsx as a tarball from its publisher's own site, outside the npm
		// registry; the registry's last release stands in for it.
		overrides: { xlsx: '0.18.5' },
		// The default expression engine of late 1.x needs isolated-vm, which does not build on Node 20.
		env: { N8N_EXPRESSION_ENGINE: 'legacy' },
		activation: 'activate',
	},
};

export const PACKAGE_ROOT = path.resolve(__dirname, '..', '..');
export const CACHE_ROOT = path.join(PACKAGE_ROOT, '.cache', 'real-n8n');

export function profileByName(name: string | undefined): Profile {
	const profile = PROFILES[name ?? 'current'];
	if (!profile) throw new Error(`unknown real-n8n profile "${name}"; known: ${Object.keys(PROFILES).join(', ')}`);
	return profile;
}

/** The profile chosen by REAL_N8N_PROFILE (the compatibility run sets it), else the current one. */
export function activeProfile(): Profile {
	return profileByName(process.env.REAL_N8N_PROFILE || undefined);
}

/** The npm package that carries the Node.js binary for this machine. */
export const NODE_PACKAGE = `node-${process.platform}-${process.arch}`;
