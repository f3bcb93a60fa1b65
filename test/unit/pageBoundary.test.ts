/**
 * The proof that a walk of several pages missed nothing at a page boundary (listing/boundary.ts):
 * which window is asked for, and when one answer proves the boundary.
 */
import { provenRun, windowAround, type PageBoundary } from '../../nodes/FileStorage/listing/boundary';
import {
	countedEntries,
	entryBound,
	fullPage,
	listingEnds,
	looksLast,
	readBound,
	servedSize,
} from '../../nodes/FileStorage/listing/pageEnd';
import type { ListEntry } from '../../nodes/FileStorage/transport/api';

const entry = (path: string): ListEntry => ({ name: path, type: 'file', path }) as ListEntry;
const paths = (entries: ListEntry[] | undefined) => entries?.map((e) => e.path);

function boundary(before: string[], after: string[]): PageBoundary {
	return {
		where: { bucket: 'b', region: 'r' },
		folder: '',
		before: new Set(before),
		after: new Set(after),
		nextPage: after.map(entry),
		position: 1000,
		served: 1000,
	};
}

describe('windowAround', () => {
	it.each([1000, 2000, 3000, 8000, 99_000])(
		'puts position %i in the middle half of a window of at least the size',
		(position) => {
			for (const size of [50, 500]) {
				const { page, limit } = windowAround(position, size, 1000);
				expect(limit).toBeGreaterThanOrEqual(size);
				expect(limit).toBeLessThanOrEqual(1000);
				const start = (page - 1) * limit;
				expect(position - start).toBeGreaterThanOrEqual(limit / 4);
				expect(position - start).toBeLessThanOrEqual((3 * limit) / 4);
			}
		},
	);

	it.each([500, 1000, 1500, 2000, 99_000])(
		'on a service serving 500 a page, puts position %i in the middle half of a window it serves whole',
		(position) => {
			for (const size of [50, 500]) {
				const { page, limit } = windowAround(position, Math.min(size, 500), 500);
				expect(limit).toBeLessThanOrEqual(500);
				const start = (page - 1) * limit;
				expect(position - start).toBeGreaterThanOrEqual(limit / 4);
				expect(position - start).toBeLessThanOrEqual((3 * limit) / 4);
			}
		},
	);

	it('a position near the start (a listing that shrank) gets a window holding it and the entry before', () => {
		const { page, limit } = windowAround(7, 50, 1000);
		const start = (page - 1) * limit;
		expect(start).toBeLessThanOrEqual(6);
		expect(start + limit).toBeGreaterThan(7);
	});
});

describe('provenRun', () => {
	const b = boundary(['p998', 'p999'], ['q000', 'q001']);

	it('an entry of the page before followed by one of the page after proves it, with nothing between', () => {
		expect(paths(provenRun(['p997', 'p998', 'p999', 'q000', 'q001'].map(entry), b, false))).toEqual([]);
	});

	it('entries between the two pages (those the pages missed) are given back', () => {
		expect(paths(provenRun(['p999', 'm1', 'm2', 'q000'].map(entry), b, false))).toEqual(['m1', 'm2']);
	});

	it('an answer without an entry of the page before, or of the page after it, proves nothing', () => {
		expect(provenRun(['m1', 'q000', 'q001'].map(entry), b, false)).toBeUndefined();
		expect(provenRun(['p998', 'p999', 'm1'].map(entry), b, false)).toBeUndefined();
		// The order matters: the page after first is no proof.
		expect(provenRun(['q000', 'p999'].map(entry), b, false)).toBeUndefined();
	});

	it('when the page after was empty, only the last page of the listing proves the end', () => {
		const end = boundary(['p998', 'p999'], []);
		expect(paths(provenRun(['p999', 'm1'].map(entry), end, true))).toEqual(['m1']);
		expect(provenRun(['p999', 'm1'].map(entry), end, false)).toBeUndefined();
	});
});

describe('fullPage (a page the count calls the last is the last only when it is not full)', () => {
	it('a page of as many entries as asked for is full; a shorter one is not', () => {
		expect(fullPage(1000, 1000, 0)).toBe(true);
		expect(fullPage(999, 1000, 0)).toBe(false);
		expect(fullPage(0, 1000, 0)).toBe(false);
	});

	it('with a service that caps its pages, a page as long as the largest earlier one is full', () => {
		expect(fullPage(500, 1000, 500)).toBe(true);
		expect(fullPage(200, 1000, 500)).toBe(false);
	});
});

const pagination = (total_pages: number, total_items: number, items_per_page: number) => ({
	current_page: 1,
	total_pages,
	total_items,
	items_per_page,
});

describe('listingEnds (the one end rule of every walk)', () => {
	it('only an empty page ends a listing: a short page may be a silent cap, whatever its counts say', () => {
		expect(listingEnds(0)).toBe(true);
		expect(listingEnds(1)).toBe(false);
		expect(listingEnds(100)).toBe(false);
	});
});

describe('fullPage and looksLast (whether the empty page after a page only checks its end)', () => {
	it('a page as long as its answer says a page holds (items_per_page) is full, even shorter than asked for', () => {
		expect(fullPage(500, 1000, 0, 500)).toBe(true);
		expect(fullPage(499, 1000, 0, 500)).toBe(false);
		expect(fullPage(500, 1000, 0, 0)).toBe(false);
		expect(fullPage(500, 1000, 0, undefined)).toBe(false);
	});

	it('page 1 of a capped service, its count lagging at one page, does not look last', () => {
		const read = { page: 1, entries: 500, asked: 1000, receivedBefore: 0, largestEarlier: 0 };
		expect(looksLast({ ...read, pagination: pagination(1, 500, 500) })).toBe(false);
	});

	it('a count of more entries than received is no look of the end; a short page with nothing more counted is', () => {
		const read = { page: 1, entries: 500, asked: 1000, receivedBefore: 0, largestEarlier: 0 };
		// No items_per_page to tell the cap: total_items says 1,100, and 500 came.
		expect(looksLast({ ...read, pagination: pagination(1, 1100, 1000) })).toBe(false);
		expect(looksLast({ ...read, pagination: pagination(1, 500, 1000) })).toBe(true);
		expect(looksLast({ ...read, page: 2, receivedBefore: 500, pagination: pagination(2, 1000, 1000) })).toBe(true);
		expect(looksLast({ ...read, entries: 0, pagination: pagination(9, 9000, 1000) })).toBe(true);
	});

	it('a short page the count does not call the last does not look last (files went away between two pages)', () => {
		const read = { page: 1, entries: 10, asked: 1000, receivedBefore: 0, largestEarlier: 0 };
		expect(looksLast({ ...read, pagination: pagination(2, 10, 1000) })).toBe(false);
	});
});

describe('runaway bounds (counted in entries, or in pages the service serves)', () => {
	it('a capped service whose total_pages is reckoned with the limit asked for may be walked to its end', () => {
		// 3,500 entries: total_pages 4 of 1000, but 7 pages of 500 are served.
		const first = pagination(4, 3500, 500);
		expect(entryBound(countedEntries(first, 1000), 1000)).toBeGreaterThanOrEqual(3500 + 1000);
		expect(readBound(first, 1000)).toBeGreaterThanOrEqual(2 * 7);
		expect(servedSize(1000, first, 0)).toBe(500);
	});

	it('the bound stays finite: a count of one page allows a few thousand entries, not more', () => {
		expect(entryBound(countedEntries(pagination(1, 1000, 1000), 1000), 1000)).toBe(3000);
		expect(readBound(pagination(1, 1000, 1000), 1000)).toBe(10);
	});
});
