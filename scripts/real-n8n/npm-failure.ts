/**
 * Tells why `npm install` of a real n8n failed, from the lines npm printed, so that a version that
 * is not on the registry (n8n 3.0 ships none; 2.41.3 pins internal packages that were never
 * published) is never reported as a network fault, and a network fault never as a bad version.
 */

export type NpmFailureKind = 'version-missing' | 'pinned-package-missing' | 'network' | 'other';

export interface NpmFailure {
	kind: NpmFailureKind;
	message: string;
}

const NETWORK_CODE = /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH)\b/;

export function explainNpmFailure(npmOutput: string, n8nVersion: string): NpmFailure {
	const missing =
		/No matching version found for (\S+?)\.?\s*$/m.exec(npmOutput) ?? /404 Not Found[^\n]*?- (\S+)/.exec(npmOutput);
	if (missing) {
		const wanted = missing[1];
		if (wanted === `n8n@${n8nVersion}` || wanted === 'n8n') {
			return {
				kind: 'version-missing',
				message: `n8n ${n8nVersion} is not on the npm registry (no such version). n8n 3.0 and later publish no runnable n8n package on npm: pick a version that exists (npm view n8n versions).`,
			};
		}
		return {
			kind: 'pinned-package-missing',
			message: `n8n ${n8nVersion} is on the npm registry but cannot be installed: it pins ${wanted}, which the registry does not have. This is a broken release, not a network fault: pick another version.`,
		};
	}
	const code = NETWORK_CODE.exec(npmOutput)?.[1];
	if (code || /\bnetwork\b.*\b(request|connect)/i.test(npmOutput)) {
		return {
			kind: 'network',
			message: `the npm registry could not be reached (${code ?? 'network error'}): check the network, a proxy or the registry setting, then run the same command again. The version itself was not checked.`,
		};
	}
	return { kind: 'other', message: `npm install of n8n ${n8nVersion} failed` };
}
