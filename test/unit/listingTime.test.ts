import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

import { namesSecond, timeOf } from '../../nodes/FileStorage/listing/listingTime';

const UTC_INSTANT = Date.UTC(2026, 0, 2, 10, 30, 0);
const MODULE = join(__dirname, '../../nodes/FileStorage/listing/listingTime.ts');

/**
 * timeOf as a process in `zone` reads each date. Jest's sandbox keeps its own copy of process.env,
 * so setting TZ inside a test never reaches the clock: a child Node.js process runs in the zone.
 */
function readIn(zone: string, dates: string[]): { offset: number; times: Array<number | null> } {
	const script = `const { timeOf } = require(${JSON.stringify(MODULE)});
const dates = ${JSON.stringify(dates)};
console.log(JSON.stringify({ offset: new Date(2026, 0, 1).getTimezoneOffset(), times: dates.map((d) => timeOf(d) ?? null) }));`;
	const output = execFileSync(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', script], {
		env: { ...process.env, TZ: zone },
		encoding: 'utf8',
	});
	return JSON.parse(output) as { offset: number; times: Array<number | null> };
}

describe("timeOf: the service's dates read the same in every host time zone", () => {
	const dates = [
		'2026-01-02T10:30:00',
		'2026-01-02T10:30:00Z',
		'2026-01-02T10:30:00.000',
		'2026-01-02 10:30:00',
		'2026-01-02T19:30:00+09:00',
		'Fri, 02 Jan 2026 10:30:00 GMT',
	];

	it.each(['Asia/Tokyo', 'America/Los_Angeles', 'UTC'])(
		'in %s a date without a zone designator is UTC, as the listing dates',
		(zone) => {
			const { offset, times } = readIn(zone, dates);
			// The zone took effect in the child (east of UTC a negative offset, west a positive one).
			if (zone === 'Asia/Tokyo') expect(offset).toBe(-540);
			if (zone === 'America/Los_Angeles') expect(offset).toBe(480);
			expect(times).toEqual(dates.map(() => UTC_INSTANT));
		},
		20_000,
	);

	it('nothing that is not a date has a time', () => {
		for (const value of ['', '  ', 'yesterday', null, undefined, 1767349800000]) expect(timeOf(value)).toBeUndefined();
		expect(timeOf('2026-01-02T10:30:00')).toBe(UTC_INSTANT);
	});
});

describe('namesSecond: only a date to the second dates a version', () => {
	it('an ISO or HTTP date with its seconds does; one to the minute or the day does not', () => {
		expect(namesSecond('2026-11-29T21:59:07Z')).toBe(true);
		expect(namesSecond('2026-11-29T21:59:07.120Z')).toBe(true);
		expect(namesSecond('Sun, 29 Nov 2026 21:59:07 GMT')).toBe(true);
		expect(namesSecond('2026-11-29T21:59Z')).toBe(false);
		expect(namesSecond('2026-11-29')).toBe(false);
		expect(namesSecond('Sun, 29 Nov 2026 21:59 GMT')).toBe(false);
		expect(namesSecond(undefined)).toBe(false);
	});
});
