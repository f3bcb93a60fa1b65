/**
 * The one reading of the service's dates (the listing's last_modified, and HTTP dates: Last-Modified,
 * Date, Retry-After), independent of the n8n host's time zone. Nothing here hands text to Date.parse:
 * it reads a date without a zone in the host's zone for some forms (an asctime date, an RFC 1123 date
 * missing "GMT", "January 2, 2026"), so each accepted form is read field by field as UTC.
 */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * ISO 8601 as the listing spells it (spec §3.1, "2024-03-20T10:30:00Z"). Without a zone designator it
 * still means UTC: a service or a gateway re-serializing its JSON that drops the "Z" changes no instant.
 */
const ISO =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** The three HTTP date forms RFC 9110 §5.6.7 has a recipient accept (the time part of each is TIME). */
const TIME = '(\\d{2}):(\\d{2})(?::(\\d{2}))?';
/** IMF-fixdate, "Fri, 02 Jan 2026 10:30:00 GMT" (RFC 1123; the weekday is optional in RFC 5322). */
const IMF = new RegExp(`^(?:[a-z]+,\\s*)?(\\d{1,2})\\s+([a-z]{3})\\s+(\\d{4})\\s+${TIME}(?:\\s+(\\S+))?$`, 'i');
/** Obsolete RFC 850, "Friday, 02-Jan-26 10:30:00 GMT", a two-digit year. */
const RFC850 = new RegExp(`^(?:[a-z]+,\\s*)?(\\d{1,2})-([a-z]{3})-(\\d{2}|\\d{4})\\s+${TIME}(?:\\s+(\\S+))?$`, 'i');
/** ANSI C asctime(), "Fri Jan  2 10:30:00 2026": it names no zone, and every HTTP date is GMT. */
const ASCTIME = new RegExp(`^[a-z]{3}\\s+([a-z]{3})\\s+(\\d{1,2})\\s+${TIME}\\s+(\\d{4})$`, 'i');

interface Fields {
	year: number;
	month: number;
	day: number;
	hour: number;
	minute: number;
	second: number;
	millisecond: number;
	/** Minutes east of UTC, or undefined for a zone this reading cannot place exactly. */
	offset: number | undefined;
}

/**
 * Minutes east of UTC a zone names. No zone is GMT (RFC 9110: every HTTP date is GMT; the listing is
 * UTC). GMT/UT/UTC/Z and a numeric offset ("+0200", "-05:00") are exact instants, so they are honoured.
 * Any other name ("CET", "EST", "IST") is refused: abbreviations are ambiguous and outside HTTP, and a
 * date read wrongly could prove a stale copy current (files/proof.ts), so such a date has no time.
 */
function offsetOf(zone: string | undefined): number | undefined {
	if (zone === undefined || /^(gmt|ut|utc|z)$/i.test(zone)) return 0;
	const numeric = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone);
	if (!numeric) return undefined;
	const [hours, minutes] = [Number(numeric[2]), Number(numeric[3] ?? 0)];
	if (hours > 23 || minutes > 59) return undefined;
	return (numeric[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

/** RFC 9110 §5.6.7: a two-digit year more than 50 years ahead is the latest past year ending so. */
function fullYear(digits: string, now: number): number {
	if (digits.length === 4) return Number(digits);
	const thisYear = new Date(now).getUTCFullYear();
	const year = Math.floor(thisYear / 100) * 100 + Number(digits);
	return year > thisYear + 50 ? year - 100 : year;
}

function monthOf(name: string): number {
	return MONTHS.indexOf(name.toLowerCase());
}

function isoFields(text: string): Fields | undefined {
	const m = ISO.exec(text);
	if (!m) return undefined;
	const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0));
	const millisecond = Number((m[7] ?? '').slice(0, 3).padEnd(3, '0'));
	const zone = m[8] === undefined ? undefined : m[8].toUpperCase();
	return { year, month: month - 1, day, hour, minute, second, millisecond, offset: offsetOf(zone) };
}

function httpFields(text: string, now: number): Fields | undefined {
	const clock = (m: RegExpExecArray, at: number) => ({
		hour: Number(m[at]),
		minute: Number(m[at + 1]),
		second: Number(m[at + 2] ?? 0),
		millisecond: 0,
	});
	const imf = IMF.exec(text) ?? RFC850.exec(text);
	if (imf) {
		const year = fullYear(imf[3], now);
		return { year, month: monthOf(imf[2]), day: Number(imf[1]), ...clock(imf, 4), offset: offsetOf(imf[7]) };
	}
	const asctime = ASCTIME.exec(text);
	if (!asctime) return undefined;
	const year = Number(asctime[6]);
	return { year, month: monthOf(asctime[1]), day: Number(asctime[2]), ...clock(asctime, 3), offset: 0 };
}

/** The instant the fields name, or undefined for a day or time that does not exist ("31 Feb", "25:00"). */
function instantOf(f: Fields): number | undefined {
	if (f.offset === undefined || f.month < 0 || f.hour > 23 || f.minute > 59 || f.second > 60) return undefined;
	const day = new Date(Date.UTC(f.year, f.month, f.day));
	day.setUTCFullYear(f.year); // Date.UTC maps years 0–99 to 1900–1999
	if (day.getUTCMonth() !== f.month || day.getUTCDate() !== f.day) return undefined;
	const time = day.getTime() + ((f.hour * 60 + f.minute - f.offset) * 60 + f.second) * 1000 + f.millisecond;
	return Number.isFinite(time) ? time : undefined;
}

/**
 * Milliseconds since the epoch of an ISO 8601 date or an HTTP date in any of its three forms, UTC
 * when it names no zone; undefined for anything else. `now` only places an RFC 850 two-digit year.
 */
export function timeOf(date: unknown, now: number = Date.now()): number | undefined {
	if (typeof date !== 'string' || date.trim() === '') return undefined;
	const text = date.trim();
	const fields = isoFields(text) ?? httpFields(text, now);
	return fields === undefined ? undefined : instantOf(fields);
}

/**
 * Whether a date names its second (ISO 8601 "…T10:30:05Z", an HTTP date's "10:30:05"). A date to the
 * minute or the day ("2026-11-29T21:59Z", "2026-11-29") reads as an instant, but it is no evidence that
 * two versions are one: within its minute another could have been stored (files/storedRecord.ts).
 */
export function namesSecond(date: unknown): boolean {
	if (typeof date !== 'string') return false;
	const iso = ISO.exec(date.trim());
	return iso ? iso[6] !== undefined : /\d{2}:\d{2}:\d{2}/.test(date);
}
