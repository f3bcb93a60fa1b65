/**
 * The integrity check of a saved state or mark as releases before the one hashing UTF-16 code units computed it
 * (text hashed as UTF-8), to build what they saved. Pure: used by trigger and unit tests.
 */
import { createHash } from 'node:crypto';

export type Stored = Record<string, unknown> & { check?: unknown; keys?: string; failures?: object };

/** The check as releases before this one computed it: text hashed as UTF-8. */
export function earlierCheckOf(stored: Stored): string {
	const hash = createHash('sha256');
	const failures = Object.entries(stored.failures ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
	const parts = [stored.version, stored.scope, stored.place, stored.count, stored.missing, failures];
	hash.update(JSON.stringify(parts.map((part) => part ?? null)));
	for (const text of [stored.files, stored.keys]) {
		hash.update(typeof text === 'string' ? `\n${text.length}:` : '\n-');
		if (typeof text === 'string') hash.update(text, 'utf8');
	}
	for (const [name, value] of Object.entries({ aside: stored.aside, pending: stored.pending })) {
		if (value === undefined) continue;
		const text = typeof value === 'string' ? value : JSON.stringify(value);
		hash.update(`\n${name} ${text.length}:`);
		hash.update(text, 'utf8');
	}
	return hash.digest().subarray(0, 8).toString('hex');
}
