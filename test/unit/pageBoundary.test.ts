/**
 * The proof that a walk of several pages missed nothing at a page boundary (listing/boundary.ts):
 * which window is asked for, and when one answer proves the boundary.
 */
import { provenRun, windowAround, type PageBoundary } from '../../nodes/FileStorage/listing/boundary';
import { fullPage } from '../../nodes/FileStorage/listing/listing';
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
