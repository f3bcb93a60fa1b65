import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const UTC_INSTANT = Date.UTC(2026, 0, 2, 10, 30, 0);
const MODULE = join(__dirname, '../../nodes/FileStorage/listing/listingTime.ts');

/** timeOf as a process in `zone` reads each date (jest's sandbox keeps TZ from reaching the clock). */
function readIn(zone: string, dates: string[]): Array<number | null> {
	const script = `const { timeOf } = require(${JSON.stringify(MODULE)});
console.log(JSON.stringify(${JSON.stringify(dates)}.map((d) => timeOf(d) ?? null)));`;
	const output = execFileSync(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', script], {
		env: { ...process.env, TZ: zone },
		encoding: 'utf8',
	});
	return JSON.parse(output) as Array<number | null>;
}

/**
 * RFC 9110 §5.6.7: a recipient of an HTTP date (Last-Modified, Date) MUST accept the two obsolete
 * forms too, RFC 850's and ANSI C asctime()'s, and every HTTP date is GMT, the asctime form naming
 * no zone. A CDN's Last-Modified decides whether its answer is the listed version (files/proof.ts),
 * so it must mean one instant whatever the n8n host's time zone: read as local time, an asctime
 * Last-Modified in Tokyo is 9 hours earlier ("another version than the service stores"), in Los
 * Angeles 8 hours later (refused as later than the listing), and a Date shifts a read's time.
 */
describe('timeOf: an HTTP date in an obsolete form names the same instant in every host time zone', () => {
	const dates = ['Fri Jan  2 10:30:00 2026', 'Friday, 02-Jan-26 10:30:00 GMT', 'Fri, 02 Jan 2026 10:30:00 GMT'];

	it.each(['Asia/Tokyo', 'America/Los_Angeles', 'UTC'])(
		'in %s an asctime date is GMT, as every HTTP date',
		(zone) => {
			expect(readIn(zone, dates)).toEqual(dates.map(() => UTC_INSTANT));
		},
		20_000,
	);
});
