import type { IDataObject } from 'n8n-workflow';

/**
 * The errors n8n 2.x throws when its SSRF protection (N8N_SSRF_PROTECTION_ENABLED) refuses where
 * a request goes. Known by name: a node may not import n8n's network module, and its HTTP client
 * may hand the refusal on wrapped (a redirect, a connection).
 */
const REFUSALS = new Set(['SsrfBlockedIpError', 'SsrfBlockedHostnameError']);

const ALLOW_HINT =
	'An n8n administrator can allow the address with N8N_SSRF_ALLOWED_IP_RANGES (e.g. 10.1.2.3/32) or its host name with N8N_SSRF_ALLOWED_HOSTNAMES.';

export interface N8nRefusal {
	/** n8n's words, as the HTTP Request node shows them. */
	message: string;
	/** n8n's explanation (which address, why) and the settings that allow it. */
	description: string;
}

/**
 * n8n's refusal of the request's address, or undefined when the error is something else. Such a
 * request never left n8n, and sending it again would be refused again.
 */
export function refusedByN8n(error: unknown): N8nRefusal | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
		const { name, message, description, cause } = current as IDataObject;
		if (typeof name === 'string' && REFUSALS.has(name) && typeof message === 'string') {
			const why = typeof description === 'string' && description ? `${description} ` : '';
			return { message, description: `${why}${ALLOW_HINT}` };
		}
		current = cause;
	}
	return undefined;
}
