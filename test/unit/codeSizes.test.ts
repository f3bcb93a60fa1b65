/**
 * Issue 31's aims, kept: no product file over 350 lines, no function over 80 lines or with more
 * than 5 parameters, and the tooling (bench/ + scripts/) at most 0.6 × the product's lines.
 * The figures are `node scripts/sizes.mjs`'s (CONTRIBUTING.md, Benchmarks).
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

type Figures = { lines: number; file: [string, number]; fn: [string, number]; params: [string, number] };

const REPO = resolve(__dirname, '../..');
const sizes: { product: Figures; tooling: Figures; ratio: number } = JSON.parse(
	execFileSync(process.execPath, ['scripts/sizes.mjs', '--json'], { cwd: REPO, encoding: 'utf8' }),
);

/** The largest figure as `where (n)`, so a failure names the file or function to split. */
const at = ([where, n]: [string, number]) => `${where} (${n})`;

test('no product file is over 350 lines', () => {
	expect(sizes.product.file[1] <= 350 || at(sizes.product.file)).toBe(true);
});

test('no product function is over 80 lines or takes more than 5 parameters', () => {
	expect(sizes.product.fn[1] <= 80 || at(sizes.product.fn)).toBe(true);
	expect(sizes.product.params[1] <= 5 || at(sizes.product.params)).toBe(true);
});

test('the tooling is at most 0.6 × the product', () => {
	expect(sizes.product.lines).toBeGreaterThan(5000);
	expect(sizes.ratio).toBeLessThanOrEqual(0.6);
});
