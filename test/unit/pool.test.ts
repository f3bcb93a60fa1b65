import { RunPool } from '../../nodes/FileStorage/transport/pool';

const MIB = 1024 * 1024;
const settled = async () => await new Promise((resolve) => setImmediate(resolve));

describe('RunPool (one per node run)', () => {
	it('never has more requests under way than its slots, and hands a freed slot to the longest waiter', async () => {
		const pool = new RunPool(2, 10 * MIB);
		const order: number[] = [];
		const first = await pool.slot();
		const second = await pool.slot();
		const waiting = [3, 4].map(async (n) => {
			const release = await pool.slot();
			order.push(n);
			return release;
		});
		await settled();
		expect(order).toEqual([]);
		first();
		await settled();
		expect(order).toEqual([3]);
		second();
		await settled();
		expect(order).toEqual([3, 4]);
		for (const release of await Promise.all(waiting)) release();
		expect(pool.peakActive).toBe(2);
	});

	it('grants body memory in the order it was asked for, within the budget', async () => {
		const pool = new RunPool(4, 10 * MIB);
		await pool.reserve(8 * MIB);
		const granted: string[] = [];
		const big = pool.reserve(6 * MIB).then(() => granted.push('6 MiB'));
		// Would fit now, but waits behind the earlier request: no starving a large body.
		const small = pool.reserve(1 * MIB).then(() => granted.push('1 MiB'));
		await settled();
		expect(granted).toEqual([]);
		pool.unreserve(8 * MIB);
		await Promise.all([big, small]);
		expect(granted).toEqual(['6 MiB', '1 MiB']);
		expect(pool.peakReserved).toBeLessThanOrEqual(10 * MIB);
	});

	it('lets one body larger than the whole budget go once nothing else is held', async () => {
		const pool = new RunPool(4, 4 * MIB);
		await pool.reserve(1 * MIB);
		let granted = false;
		const oversized = pool.reserve(32 * MIB).then(() => (granted = true));
		await settled();
		expect(granted).toBe(false);
		pool.unreserve(1 * MIB);
		await oversized;
		expect(granted).toBe(true);
	});

	it('drops idle part bodies when a reservation needs their room', async () => {
		const pool = new RunPool(4, 10 * MIB);
		await pool.reserve(8 * MIB);
		const buffer = pool.bodyBuffer(8 * MIB);
		pool.returnBody(buffer, 8 * MIB);
		// The idle body still counts until someone needs the room.
		await pool.reserve(6 * MIB);
		expect(pool.peakReserved).toBeLessThanOrEqual(10 * MIB);
	});

	it('hands a part body given back while the next part waits for room to that part, instead of allocating a new one', async () => {
		const part = 5 * MIB;
		const capacity = part + 4096;
		const pool = new RunPool(8, 2 * part);
		await pool.reserve(part);
		const first = pool.bodyBuffer(capacity);
		await pool.reserve(part);
		const second = pool.bodyBuffer(capacity);
		// The budget is full: the next part waits until a body comes back.
		let granted = false;
		const next = pool.reserve(part, true).then(() => (granted = true));
		await settled();
		expect(granted).toBe(false);
		pool.returnBody(first, part);
		await next;
		// Compared as identity: a failing diff of two large buffers would not end.
		expect(pool.bodyBuffer(capacity) === first).toBe(true);
		pool.returnBody(second, part);
		expect(pool.peakReserved).toBeLessThanOrEqual(2 * part);
	});

	it('lets go of a handed-over body when the reservation it was handed to ends without using it', async () => {
		const part = 5 * MIB;
		const capacity = part + 4096;
		const pool = new RunPool(8, part);
		await pool.reserve(part);
		const body = pool.bodyBuffer(capacity);
		const next = pool.reserve(part, true);
		pool.returnBody(body, part);
		await next;
		// The source ended: no part was read into the handed body.
		pool.unreserve(part);
		await pool.reserve(part);
		expect(pool.bodyBuffer(capacity) === body).toBe(false);
		expect(pool.peakReserved).toBeLessThanOrEqual(part);
	});

	it('holds every request back while the service asked to wait', async () => {
		const pool = new RunPool(4, MIB);
		pool.pause(200);
		let got = false;
		const slot = pool.slot().then((release) => {
			got = true;
			return release;
		});
		await settled();
		expect(got).toBe(false);
		(await slot)();
		expect(got).toBe(true);
	});
});
