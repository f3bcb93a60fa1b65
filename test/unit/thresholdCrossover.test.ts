import { crossoverOf, type ThresholdPoint } from '../../bench/far-threshold';
import type { Run } from '../../bench/runner';

const runs = (...ms: number[]): Run[] => ms.map((m) => ({ ms: m, emulatorCpuSeconds: 0 }));
const point = (sizeMiB: number, single: number[], multipart: number[]): ThresholdPoint => ({
	sizeMiB,
	single: runs(...single),
	multipart: runs(...multipart),
});

describe("the bench's threshold crossover (medians, parts faster from there on)", () => {
	it('lies between the last size one request won and the next, where the time difference crosses zero', () => {
		const c = crossoverOf([
			point(8, [600, 700, 650], [900, 950, 920]),
			point(16, [1200], [1400]),
			point(24, [1700], [1500]),
			point(32, [2200], [1500]),
		]);
		expect(c).toMatchObject({ from: 16, to: 24, allSingle: false, allMultipart: false });
		// -200 ms at 16 MiB, +200 ms at 24 MiB: halfway.
		expect(c.estimateMiB).toBeCloseTo(20, 5);
	});

	it('a size where one request wins again after parts won moves the crossover above it', () => {
		const c = crossoverOf([
			point(16, [1000], [1400]),
			point(24, [1700], [1500]),
			point(32, [1400], [1500]),
			point(48, [3000], [1500]),
		]);
		expect(c).toMatchObject({ from: 32, to: 48 });
	});

	it('says so when one way wins at every size', () => {
		expect(crossoverOf([point(8, [500], [900]), point(16, [1000], [1400])])).toMatchObject({ allSingle: true });
		expect(crossoverOf([point(24, [1700], [1500]), point(32, [2200], [1500])])).toMatchObject({ allMultipart: true });
	});
});
