import { MIB, planParts } from '../../nodes/FileStorage/upload/parts';

const GIB = 1024 * MIB;

describe('planParts', () => {
	it('splits into full parts and a shorter last part', () => {
		expect(planParts(15 * MIB + 1, { partSizeMiB: 5, parallelUploads: 4 })).toEqual({
			partSize: 5 * MIB,
			totalParts: 4,
		});
		expect(planParts(15 * MIB, { partSizeMiB: 5, parallelUploads: 4 })).toEqual({ partSize: 5 * MIB, totalParts: 3 });
		expect(planParts(1, { partSizeMiB: 8, parallelUploads: 1 })).toEqual({ partSize: 8 * MIB, totalParts: 1 });
	});

	it('allows exactly 10,000 parts and refuses one more, suggesting a part size that fits', () => {
		expect(planParts(10_000 * 5 * MIB, { partSizeMiB: 5, parallelUploads: 4 })).toEqual({
			partSize: 5 * MIB,
			totalParts: 10_000,
		});
		const tooMany = planParts(10_000 * 5 * MIB + 1, { partSizeMiB: 5, parallelUploads: 4 });
		expect(tooMany).toEqual({
			problem: 'The file needs 10001 parts at a Part Size of 5 MiB; the service allows at most 10000',
			hint: 'Set Part Size to at least 6 MiB for this file.',
		});
		const huge = planParts(100 * GIB, { partSizeMiB: 8, parallelUploads: 4 });
		expect('hint' in huge && huge.hint).toBe('Set Part Size to at least 11 MiB for this file.');
	});

	it.each([
		[{ partSizeMiB: 4.99, parallelUploads: 4 }, /Part Size must be between 5 and 5120 MiB \(got 4\.99\)/],
		[{ partSizeMiB: 5121, parallelUploads: 4 }, /between 5 and 5120 MiB \(got 5121\)/],
		[{ partSizeMiB: Number.NaN, parallelUploads: 4 }, /got NaN/],
		[{ partSizeMiB: 8, parallelUploads: 0 }, /Parallel Uploads must be a whole number from 1 to 16 \(got 0\)/],
		[{ partSizeMiB: 8, parallelUploads: 17 }, /got 17/],
		[{ partSizeMiB: 8, parallelUploads: 2.5 }, /got 2\.5/],
	])('refuses %j', (settings, problem) => {
		const plan = planParts(100 * MIB, settings);
		expect('problem' in plan && plan.problem).toMatch(problem);
	});
});
