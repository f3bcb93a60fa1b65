import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { timeOf } from '../../nodes/FileStorage/listing/listingTime';

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

describe('timeOf: an HTTP date without GMT is GMT, an explicit offset an exact instant', () => {
	it.each(['Asia/Tokyo', 'America/Los_Angeles'])(
		'in %s an RFC 1123 date missing GMT is GMT, and one with a numeric offset the instant it names',
		(zone) => {
			const dates = [
				'Fri, 02 Jan 2026 10:30:00',
				'Fri, 02 Jan 2026 12:30:00 +0200',
				'Fri, 02 Jan 2026 05:30:00 -05:00',
			];
			expect(readIn(zone, dates)).toEqual(dates.map(() => UTC_INSTANT));
		},
		20_000,
	);

	it('a zone named by an abbreviation other than GMT/UT/UTC has no time (it cannot be placed exactly)', () => {
		for (const zone of ['CET', 'EST', 'IST', 'PST', 'XYZ']) {
			expect(timeOf(`Fri, 02 Jan 2026 10:30:00 ${zone}`)).toBeUndefined();
		}
		for (const zone of ['GMT', 'UTC', 'UT', 'gmt'])
			expect(timeOf(`Fri, 02 Jan 2026 10:30:00 ${zone}`)).toBe(UTC_INSTANT);
	});

	it('a day or a time that does not exist has no time', () => {
		for (const date of [
			'Sat, 31 Feb 2026 10:30:00 GMT',
			'Fri, 02 Jan 2026 24:30:00 GMT',
			'Fri, 02 Foo 2026 10:30:00 GMT',
			'Fri Jan 32 10:30:00 2026',
			'2026-13-02T10:30:00Z',
			'January 2, 2026 10:30',
			'Fri, 02 Jan 2026 10:30:00 +2500',
		]) {
			expect(timeOf(date)).toBeUndefined();
		}
	});

	it('an RFC 850 two-digit year more than 50 years ahead is the latest past year ending so', () => {
		const now = Date.UTC(2026, 5, 1);
		expect(timeOf('Friday, 02-Jan-26 10:30:00 GMT', now)).toBe(UTC_INSTANT);
		expect(timeOf('Thursday, 02-Jan-76 10:30:00 GMT', now)).toBe(Date.UTC(2076, 0, 2, 10, 30, 0));
		expect(timeOf('Thursday, 02-Jan-80 10:30:00 GMT', now)).toBe(Date.UTC(1980, 0, 2, 10, 30, 0));
	});
});

describe('dates in the node are read only by timeOf', () => {
	it('no product file hands text to Date.parse (it reads zone-less dates in the host zone)', () => {
		const root = join(__dirname, '../../nodes');
		const files = (readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
		const offenders = files.filter((f) =>
			readFileSync(join(root, f), 'utf8')
				.split('\n')
				.some((line) => /Date\.parse\(/.test(line) && !/^\s*(\*|\/\/)/.test(line)),
		);
		expect(offenders).toEqual([]);
	});
});
