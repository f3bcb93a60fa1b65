/** A seeded pseudo-random source (mulberry32): the same seed draws the same schedule. */
export class Random {
	private state: number;

	constructor(readonly seed: number) {
		this.state = seed >>> 0 || 0x9e3779b9;
	}

	/** Uniform in [0, 1). */
	next(): number {
		this.state = (this.state + 0x6d2b79f5) >>> 0;
		let t = this.state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	}

	int(min: number, max: number): number {
		return min + Math.floor(this.next() * (max - min + 1));
	}

	chance(p: number): boolean {
		return this.next() < p;
	}

	pick<T>(values: readonly T[]): T {
		return values[Math.floor(this.next() * values.length)];
	}

	bytes(length: number): Buffer {
		return Buffer.from(Array.from({ length }, () => this.int(97, 122)));
	}
}

/** One seeded draw after another, uniform in [0, 1): for tests that need no more than that. */
export function seededDraw(seed: number): () => number {
	const random = new Random(seed);
	return () => random.next();
}
