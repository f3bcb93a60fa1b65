/**
 * Turns on keys within one node run. Version 3 runs items in parallel, and the API has no
 * conditional write ("only if absent", "only if unchanged"): two items writing or deleting one key
 * would each act on what they saw before the other wrote (both find it free; one's check takes
 * the other's file for its own). Items naming the same key take turns instead, in the order they
 * ask, each seeing what the one before did; an item keeps its turns until it finishes.
 *
 * An item whose write ended without a known outcome (an upload, a Complete or a delete that got no
 * answer in time, a gateway's 504 or any 5xx: transport/outcome.ts), which the service may still
 * carry out, leaves its key marked for the rest of the run: a
 * later item of the run that writes there could see the key free, store, report it stored, and
 * then have its file replaced by the late write. Such items are refused instead (Item.takeTurns).
 *
 * A key has one CDN location in the account whatever its bucket (spec §3.9): a read of a file may
 * be answered with the file at its key in another bucket. So turns are taken per key, across
 * buckets (an item writing `y` in one bucket and one reading `y` in another take turns), and the
 * run remembers where it wrote (`wroteAt`), so that a later read at that key in another bucket can
 * be refused (actions/file/runLocation.ts). It keeps 30-bit hashes, not keys: a folder of a million files
 * costs a few megabytes, and a hash that matches by chance only costs one existence check.
 */

/** A key as the turns name it: bucket, region and key (a bucket is identified by the pair). */
export interface KeyRef {
	bucket: string;
	region: string;
	key: string;
}

/** A key an item wrote without learning the outcome, and that item. */
export interface UnsettledWrite {
	ref: KeyRef;
	writer: number;
}

export class KeyTurns {
	/** Per key: the promise that settles when the last item queued for it is done. */
	private readonly tails = new Map<string, Promise<void>>();
	/** Per key: the item whose write to it may still land (its outcome unknown). */
	private readonly unsettled = new Map<string, UnsettledWrite>();
	/** Hashes of the keys (with their buckets) the run wrote, and the buckets it wrote in. */
	private readonly written = new Set<number>();
	private readonly writtenBuckets = new Map<string, { bucket: string; region: string }>();

	/** Marks `ref` as written by the run (before the write starts: a write under way counts). */
	wroteAt(ref: KeyRef): void {
		this.written.add(hashOf(nameOf(ref)));
		const bucket = { bucket: ref.bucket, region: ref.region };
		this.writtenBuckets.set(JSON.stringify([ref.bucket, ref.region]), bucket);
	}

	/** The files at `ref`'s key in other buckets that the run may have written (a hash may match by chance). */
	writtenElsewhere(ref: KeyRef): KeyRef[] {
		const found: KeyRef[] = [];
		for (const { bucket, region } of this.writtenBuckets.values()) {
			if (bucket === ref.bucket && region === ref.region) continue;
			const there = { bucket, region, key: ref.key };
			if (this.written.has(hashOf(nameOf(there)))) found.push(there);
		}
		return found;
	}

	/** Marks the key as written by item `itemIndex` with an unknown outcome, for the rest of the run. */
	markUnsettled(ref: KeyRef, itemIndex: number): void {
		const name = nameOf(ref);
		if (!this.unsettled.has(name)) this.unsettled.set(name, { ref: { ...ref }, writer: itemIndex });
	}

	/** The first of `refs` another item's write may still land on, with that item's index. */
	unsettledOf(refs: KeyRef[], itemIndex: number): UnsettledWrite | undefined {
		for (const ref of refs) {
			const found = this.unsettled.get(nameOf(ref));
			if (found && found.writer !== itemIndex) return found;
		}
		return undefined;
	}

	/** A write at `ref`'s key in another bucket that may still land: it would have `ref`'s CDN location. */
	unsettledElsewhere(ref: KeyRef): UnsettledWrite | undefined {
		for (const found of this.unsettled.values()) {
			const other = found.ref.bucket !== ref.bucket || found.ref.region !== ref.region;
			if (other && found.ref.key === ref.key) return found;
		}
		return undefined;
	}

	/**
	 * A key inside `folder` (a prefix, '' for the whole bucket; with `recursive`, in its sub-folders
	 * too) another item's write may still land on: a folder's delete would not leave it empty.
	 */
	unsettledUnder(folder: KeyRef, recursive: boolean, itemIndex: number): UnsettledWrite | undefined {
		for (const found of this.unsettled.values()) {
			const { bucket, region, key } = found.ref;
			if (found.writer === itemIndex || bucket !== folder.bucket || region !== folder.region) continue;
			if (!key.startsWith(folder.key)) continue;
			if (recursive || !key.slice(folder.key.length).includes('/')) return found;
		}
		return undefined;
	}

	/**
	 * Waits for the turn on every key, then holds them until the returned release. All the keys an
	 * item needs take their place in every key's queue at once (no wait between them), so items go in
	 * the order they ask on each key they share (a Move of a to b before a Move of c to a: the first
	 * moves a away before the second writes there), and two items needing the same two keys (a Move of
	 * a to b beside one of b to a) cannot each hold one and wait for the other.
	 */
	async take(refs: KeyRef[]): Promise<() => void> {
		// Per key, whatever the bucket: one CDN location (see above).
		const names = [...new Set(refs.map((ref) => ref.key))].sort();
		const places = names.map((name) => this.queue(name));
		await Promise.all(places.map((place) => place.ready));
		return () => {
			for (const place of places) place.release();
		};
	}

	/** A place in the key's queue: `ready` once every item before it gave the key back. */
	private queue(name: string): { ready: Promise<void>; release: () => void } {
		const before = this.tails.get(name) ?? Promise.resolve();
		let release: () => void = () => undefined;
		const mine = new Promise<void>((resolve) => (release = resolve));
		const tail = before.then(async () => await mine);
		this.tails.set(name, tail);
		return {
			ready: before,
			release: () => {
				release();
				// Only the last in the queue forgets the key: items still queued keep their order.
				if (this.tails.get(name) === tail) this.tails.delete(name);
			},
		};
	}
}

function nameOf(ref: KeyRef): string {
	return JSON.stringify([ref.bucket, ref.region, ref.key]);
}

/** FNV-1a, 30 bits (a small integer in V8's sets). */
function hashOf(name: string): number {
	let hash = 0x811c9dc5;
	for (let i = 0; i < name.length; i++) {
		hash ^= name.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193);
	}
	return (hash >>> 2) & 0x3fffffff;
}
