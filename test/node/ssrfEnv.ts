/**
 * n8n's SSRF protection as an administrator turns it on, with the emulator's loopback address
 * allowed. Imported before the harness: n8n's config reads `process.env` when it is first created,
 * and jest gives each test file its own copy of both. Every other loopback address (127.0.0.2, …)
 * stays in n8n's default block list (127.0.0.0/8), so a server there plays a blocked host.
 */
export const ALLOWED_RANGE = '127.0.0.1/32';
export const BLOCKED_HOST = '127.0.0.2';

Object.assign(process.env, {
	N8N_SSRF_PROTECTION_ENABLED: 'true',
	N8N_SSRF_ALLOWED_IP_RANGES: ALLOWED_RANGE,
});
