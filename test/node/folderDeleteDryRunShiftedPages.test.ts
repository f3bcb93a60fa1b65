/**
 * Folder → Delete with Dry Run on, over a folder of two list pages while another writer deletes files of the
 * first page after the node read it, through n8n-core's engine over real HTTP to the emulator. Dry Run lists "what
 * would go" (docs/operations.md): a file that stayed in the folder the whole time, which a real run deletes, is
 * never left out of that list while the run ends as a plain success. Either it is listed, or the run says it could
 * not list the folder whole (as Folder → Copy and Move say, and as a real Folder → Delete says after its rounds).
 */
import { runNode } from '../harness';
import { BUCKET, credentialsFor, useEmulator } from './support';

const emulator = useEmulator();
const WHERE = { name: BUCKET.bucketName, region: BUCKET.region };
const path = (value: string) => ({ __rl: true, mode: 'path', value });
const name = (n: number) => `dry/f${String(n).padStart(4, '0')}.txt`;
const FILES = 1010;

afterEach(() => emulator().adversary.setHooks(undefined));

describe('Folder → Delete, Dry Run, while another writer empties the first list page', () => {
	it('never leaves out a file that stayed in the folder the whole time, while ending as a plain success', async () => {
		await Promise.all(
			Array.from({ length: FILES }, async (_, n) =>
				emulator().adversary.put(WHERE, name(n), Buffer.from(`file ${n}`), { visibility: 'private', writer: 'setup' }),
			),
		);
		let acted = false;
		// Once page 1 (1,000 entries) has been answered, another workflow moves those 1,000 files away.
		emulator().adversary.setHooks({
			after: async (call) => {
				if (acted || call.op !== 'list' || call.query.get('prefix') !== 'dry/') return;
				if ((call.query.get('page') ?? '1') !== '1' || call.query.get('limit') !== '1000') return;
				acted = true;
				for (let n = 0; n < 1000; n++) await emulator().adversary.remove(WHERE, name(n), 'another workflow');
			},
		});
		const result = await runNode({
			credentials: credentialsFor(emulator()),
			parameters: { ...BUCKET, resource: 'folder', operation: 'delete', folder: path('dry/'), dryRun: true },
		});
		emulator().adversary.setHooks(undefined);
		expect(acted).toBe(true);
		const listed = new Set(result.items.map((item) => item.json.key));
		// The files that were in the folder before, during and after the Dry Run: a real run deletes each of them.
		const stayed = Array.from({ length: FILES - 1000 }, (_, n) => name(1000 + n));
		for (const key of stayed) expect(await emulator().readObject(WHERE.name, WHERE.region, key)).toBeDefined();
		const left = stayed.filter((key) => !listed.has(key));
		// Either the list holds every such file, or the run fails saying it could not list the folder whole.
		expect(result.error === undefined ? left : []).toEqual([]);
	}, 120_000);

	it('whose pages move under every walk fails saying it could not list the folder whole, and deletes nothing', async () => {
		const key = (n: number) => `dry-busy/f${String(n).padStart(4, '0')}.txt`;
		await Promise.all(
			Array.from({ length: 4100 }, async (_, n) =>
				emulator().adversary.put(WHERE, key(n), Buffer.from(`file ${n}`), { visibility: 'private', writer: 'setup' }),
			),
		);
		let next = 0;
		// After every first page, another workflow removes its 1,000 files: no walk can prove its page boundary.
		emulator().adversary.setHooks({
			after: async (call) => {
				if (call.op !== 'list' || call.query.get('prefix') !== 'dry-busy/') return;
				if ((call.query.get('page') ?? '1') !== '1' || call.query.get('limit') !== '1000') return;
				for (const end = next + 1000; next < end; next++)
					await emulator().adversary.remove(WHERE, key(next), 'another');
			},
		});
		const result = await runNode({
			credentials: credentialsFor(emulator()),
			parameters: { ...BUCKET, resource: 'folder', operation: 'delete', folder: path('dry-busy/'), dryRun: true },
		});
		emulator().adversary.setHooks(undefined);
		expect(result.error?.message).toMatch(/Dry Run could not list 'dry-busy\/' whole/);
		expect(result.items).toEqual([]);
		expect(await emulator().readObject(WHERE.name, WHERE.region, key(4099))).toBeDefined();
		expect(await emulator().readObject(WHERE.name, WHERE.region, key(next))).toBeDefined();
	}, 120_000);
});
