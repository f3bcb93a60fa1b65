/**
 * Folder → Copy and Move over a service that serves at most 100 entries a page whatever the limit asked (its
 * `items_per_page` names the limit asked, as its page count does), and whose count lags behind its rows (a cached
 * count: 50 files were stored just before, the count still says 100). Page 1 holds 100 entries and the count says
 * 100: neither the page nor the count shows the end, since a count may lag low (docs/api-choices.md, "Where a
 * listing ends"). The run must not end as a plain success with files it never listed still in the source. Through
 * n8n-core's engine over real HTTP to the emulator.
 */
import type { HookCall } from '../emulator/history';
import { emulatorClient } from '../emulator/conformance/client';
import { runNode } from '../harness';
import { BUCKET, credentialsFor, useEmulator } from './support';

const emulator = useEmulator();
const WHERE = { name: BUCKET.bucketName, region: BUCKET.region };
const FILES = 150;
const CAP = 100;
const COUNTED = 100;
const path = (value: string) => ({ __rl: true, mode: 'path', value });
const name = (n: number) => `f${String(n).padStart(3, '0')}.txt`;
const read = async (key: string) => (await emulator().readObject(WHERE.name, WHERE.region, key))?.body.toString();

/** List answers of at most CAP entries (page N starts at (N − 1) × CAP), their count stuck at COUNTED. */
function capPagesLaggingCount() {
	const api = emulatorClient(emulator());
	emulator().adversary.setHooks({
		after: async (call: HookCall, reply: { status: number; body: unknown }) => {
			const limit = Number(call.query.get('limit') ?? 20);
			if (call.op !== 'list' || limit <= CAP) return;
			const page = Number(call.query.get('page') ?? 1);
			const capped = await api.list({ prefix: call.query.get('prefix') ?? '', page, limit: CAP });
			const body = JSON.parse(capped.body.toString()) as { data: { pagination: Record<string, number> } };
			Object.assign(body.data.pagination, {
				total_items: COUNTED,
				total_pages: Math.max(1, Math.ceil(COUNTED / limit)),
				items_per_page: limit,
			});
			reply.body = body;
		},
	});
}

afterEach(() => emulator().adversary.setHooks(undefined));

describe('a service that caps its list pages, its count lagging behind its rows', () => {
	it.each(['copy', 'move'] as const)(
		'%s: never a plain success while files of the folder were never listed',
		async (operation) => {
			const from = `lagging-${operation}/`;
			const to = `lagging-${operation}-to/`;
			await Promise.all(
				Array.from({ length: FILES }, async (_, n) =>
					emulator().adversary.put(WHERE, `${from}${name(n)}`, Buffer.from(`file ${n}`), {
						visibility: 'private',
						writer: 'setup',
					}),
				),
			);
			capPagesLaggingCount();
			const result = await runNode({
				credentials: credentialsFor(emulator()),
				parameters: {
					...BUCKET,
					resource: 'folder',
					operation,
					folder: path(from),
					destinationFolder: path(to),
					options: { summary: true },
				},
			});
			emulator().adversary.setHooks(undefined);
			let done = 0;
			for (let n = 0; n < FILES; n++) if ((await read(`${to}${name(n)}`)) === `file ${n}`) done += 1;
			// Either every file was handled, or the run says it did not finish.
			expect({ done, failed: result.error !== undefined }).toEqual(
				done === FILES ? { done, failed: false } : { done, failed: true },
			);
		},
		120_000,
	);
});
