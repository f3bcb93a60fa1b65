/**
 * Turns on keys within one node run. Version 3 runs items in parallel, and the API has no
 * conditional write ("only if absent", "only if unchanged"): two items writing or deleting one key
 * would each act on what they saw before the other wrote (both find it free; one's check takes
 * the other's file for its own). Items naming the same key take turns instead, in the order they
 * ask, each seeing what the one before did; an item keeps its turns until it finishes.
 */

/** A key as the turns name it: bucket, region and key (a bucket is identified by the pair). */
export interface KeyRef {
	bucket: string;
	region: string;
	key: string;
}

export class KeyTurns {
	/** Per key: the promise that settles when the last item queued for it is done. */
	private readonly tails = new Map<string, Promise<void>>();

	/**
	 * Waits for the turn on every key, then holds them until the returned release. All the keys an
	 * item needs are asked at once and taken in one order (sorted), so two items needing the same
	 * two keys (a Move of a to b beside one of b to a) cannot each hold one and wait for the other.
	 */
	async take(refs: KeyRef[]): Promise<() => void> {
		const names = [...new Set(refs.map((ref) => JSON.stringify([ref.bucket, ref.region, ref.key])))].sort();
		const releases: Array<() => void> = [];
		for (const name of names) releases.push(await this.takeOne(name));
		return () => {
			for (const release of releases) release();
		};
	}

	private async takeOne(name: string): Promise<() => void> {
		const before = this.tails.get(name) ?? Promise.resolve();
		let release: () => void = () => undefined;
		const mine = new Promise<void>((resolve) => (release = resolve));
		const tail = before.then(async () => await mine);
		this.tails.set(name, tail);
		await before;
		return () => {
			release();
			// Only the last in the queue forgets the key: items still queued keep their order.
			if (this.tails.get(name) === tail) this.tails.delete(name);
		};
	}
}
