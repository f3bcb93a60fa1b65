/**
 * Folder → Move of a folder that takes several list pages, through n8n-core's engine over real HTTP
 * to the emulator (its pages capped at 10 entries, counted as the spec counts them, so a small
 * folder takes several pages). A Move deletes files as it walks, so it walks again until a walk
 * finds nothing new. That last walk is no proof by itself: another writer deleting a file the run
 * kept (a source whose destination holds other bytes) between two of its pages pulls a file the
 * earlier walks missed onto a page already read. (Pages of 10 keep the test small: with the
 * service's own 1,000-entry pages, 1,000 kept files and 1,001 moved ones do the same.)
 */
import type { HookCall } from '../emulator/history';
import { emulatorClient } from '../emulator/conformance/client';
import { runNode } from '../harness';
import { BUCKET, credentialsFor, useEmulator } from './support';

const emulator = useEmulator();
const WHERE = { name: BUCKET.bucketName, region: BUCKET.region };
const CAP = 10;
const path = (value: string) => ({ __rl: true, mode: 'path', value });
const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));
const read = async (key: string) => (await emulator().readObject(WHERE.name, WHERE.region, key))?.body.toString();
const put = async (key: string, body: string) =>
	await emulator().adversary.put(WHERE, key, Buffer.from(body), { visibility: 'private', writer: 'setup' });
const two = (n: number) => String(n).padStart(2, '0');

afterEach(() => emulator().adversary.setHooks(undefined));

describe('Folder → Move whose last walk sees another writer delete a kept file between two pages', () => {
	it('never ends as a plain success while a file that was in the folder the whole run is still there, unreported', async () => {
		const from = 'walked/';
		const to = 'walked-to/';
		// Ten sources the Move keeps (their destinations hold other bytes), then eleven it moves.
		for (let n = 0; n < 10; n++) {
			await put(`${from}k${two(n)}.txt`, `kept ${n}`);
			await put(`${to}k${two(n)}.txt`, `another file ${n}`);
		}
		for (let n = 0; n <= 10; n++) await put(`${from}z${two(n)}.txt`, `moved ${n}`);
		await sleep(6000);
		const api = emulatorClient(emulator());
		let firstPages = 0;
		emulator().adversary.setHooks({
			after: async (call: HookCall, reply: { status: number; body: unknown }) => {
				// Only the walk's listings of the folder (a record is looked up with the file's key as prefix).
				if (call.op !== 'list' || call.query.get('prefix') !== from) return;
				if (Number(call.query.get('limit') ?? 20) <= CAP) return;
				const page = Number(call.query.get('page') ?? 1);
				const capped = await api.list({ prefix: from, page, limit: CAP });
				reply.body = JSON.parse(capped.body.toString());
				// The second walk's first page answered: another writer deletes a file the run kept.
				if (page === 1 && ++firstPages === 2) await emulator().adversary.remove(WHERE, `${from}k00.txt`, 'other');
			},
		});
		const result = await runNode({
			credentials: credentialsFor(emulator()),
			typeVersion: 2,
			parameters: {
				...BUCKET,
				resource: 'folder',
				operation: 'move',
				folder: path(from),
				destinationFolder: path(to),
				options: { summary: true },
			},
			continueOnFail: true,
		});
		emulator().adversary.setHooks(undefined);
		const left: string[] = [];
		for (let n = 0; n <= 10; n++) if ((await read(`${from}z${two(n)}.txt`)) !== undefined) left.push(`z${two(n)}.txt`);
		// Every file still in the source is reported (an item of its own), or the run says it could not finish.
		const reported = new Set(result.items.map((item) => (item.json.source as { key?: string } | null)?.key));
		const unreported = left.filter((name) => !reported.has(`${from}${name}`));
		expect({ left, unreported, failed: result.error !== undefined }).toEqual({
			left,
			unreported: result.error === undefined ? [] : unreported,
			failed: result.error !== undefined,
		});
	}, 120_000);
});
