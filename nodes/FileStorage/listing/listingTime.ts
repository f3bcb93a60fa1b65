/**
 * The one reading of the service's dates (the listing's last_modified, and HTTP dates), independent
 * of the n8n host's time zone.
 */

/**
 * An ISO 8601 date and time without a zone designator ("2026-01-02T10:30:00"): Date.parse would read
 * it in the host's zone. The listing dates in UTC (spec §3.1, "2024-03-20T10:30:00Z"), so a service
 * or a gateway re-serializing its JSON that drops the "Z" still means UTC.
 */
const WITHOUT_ZONE = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/** Milliseconds since the epoch of an HTTP or ISO date (UTC when it names no zone), or undefined. */
export function timeOf(date: unknown): number | undefined {
	if (typeof date !== 'string' || date.trim() === '') return undefined;
	const text = date.trim();
	const time = Date.parse(WITHOUT_ZONE.test(text) ? `${text.replace(' ', 'T')}Z` : text);
	return Number.isFinite(time) ? time : undefined;
}
