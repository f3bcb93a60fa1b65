/**
 * Folder → Copy and Folder → Move in a real `n8n start` (node version 3, over webhooks): a folder
 * of 1,000 small files and 2 large ones (sent in parts) copied and moved byte-identical; a Move
 * that fails half-way and is run again ends with every file moved once; Dry Run changes nothing;
 * a destination inside the source is refused; an existing file is reported, not replaced.
 */
import * as path from 'node:path';
import { promises as fsp } from 'node:fs';

import type { RunningN8n } from '../../scripts/real-n8n/n8n';
import { emulatorClient } from '../emulator/conformance/client';
import {
	BUCKET,
	MIB,
	activateWorkflow,
	importWorkflows,
	sha256,
	startN8n,
	tail,
	useRealN8n,
	webhookWorkflow,
} from './support';

const STEPS = ['copy', 'move'] as const;
type Step = (typeof STEPS)[number];
const id = (step: Step) => `fsE2eFolder${step.padEnd(4, '0')}`;

function workflow(step: Step): object {
	return webhookWorkflow({
		id: id(step),
		name: `e2e: folder ${step}`,
		path: `folder-${step}`,
		typeVersion: 3,
		parameters: {
			resource: 'folder',
			operation: step,
			folder: { __rl: true, mode: 'path', value: '={{ $json.query.folder }}' },
			destinationFolder: { __rl: true, mode: 'path', value: '={{ $json.query.to }}' },
			dryRun: '={{ $json.query.dryRun === "true" }}',
		},
	});
}

const n8n = useRealN8n({ workflows: [] });
let server: RunningN8n | undefined;
const files = new Map<string, Buffer>();

jest.setTimeout(20 * 60_000);

beforeAll(async () => {
	const { instance, filesDir, emulator } = n8n();
	const paths = STEPS.map((step) => path.join(filesDir, `folder-${step}.json`));
	await Promise.all(STEPS.map((step, index) => fsp.writeFile(paths[index], JSON.stringify(workflow(step)))));
	await importWorkflows(instance, paths);
	for (const step of STEPS) await activateWorkflow(instance, id(step));
	server = await startN8n(instance, { webhookPaths: STEPS.map((step) => `folder-${step}`) });
	for (let n = 0; n < 1000; n++)
		files.set(`tree/${n % 4 === 0 ? 'sub/' : ''}f${n}.txt`, Buffer.from(`file ${n} `.repeat(n % 50)));
	for (const n of [0, 1]) files.set(`tree/large-${n}.bin`, Buffer.alloc(30 * MIB + n, n + 1));
	const api = emulatorClient(emulator, BUCKET.name, BUCKET.region);
	const keys = [...files.keys()];
	await Promise.all(
		Array.from({ length: 8 }, async (_, lane) => {
			for (let n = lane; n < keys.length; n += 8) {
				const answer = await api.upload(keys[n], files.get(keys[n])!, { contentType: 'text/plain' });
				if (answer.status !== 200) throw new Error(`upload of ${keys[n]}: ${answer.status}`);
			}
		}),
	);
}, 600_000);

afterAll(async () => {
	await server?.stop();
});

async function call(step: Step, query: Record<string, string>) {
	const response = await fetch(`${server!.url}/webhook/folder-${step}?${new URLSearchParams(query).toString()}`, {
		method: 'POST',
		signal: AbortSignal.timeout(15 * 60_000),
	});
	const text = await response.text();
	return { status: response.status, text, items: () => JSON.parse(text) as Array<Record<string, unknown>> };
}

/** How many files are byte-identical under `to` (and, when `gone`, no longer under tree/). */
async function identicalUnder(to: string, gone: boolean): Promise<number> {
	const { emulator } = n8n();
	let same = 0;
	for (const [key, bytes] of files) {
		const there = await emulator.objectSha256(BUCKET.name, BUCKET.region, `${to}${key.slice('tree/'.length)}`);
		const left = await emulator.readObject(BUCKET.name, BUCKET.region, key);
		if (there === sha256(bytes) && (!gone || !left)) same += 1;
	}
	return same;
}

it('copies a folder of 1,000 small files and 2 large ones byte-identical; Dry Run and a destination inside are refused', async () => {
	const dry = await call('copy', { folder: 'tree/', to: 'dry/', dryRun: 'true' });
	expect(dry.status).toBe(200);
	expect(dry.items().every((item) => item.status === 'wouldCopy')).toBe(true);
	expect(dry.items()).toHaveLength(files.size);
	expect(await n8n().emulator.readObject(BUCKET.name, BUCKET.region, 'dry/f1.txt')).toBeUndefined();
	// n8n answers a failed webhook run with "Error in workflow" alone: the refusal shows as no request sent.
	n8n().emulator.resetStats();
	const inside = await call('copy', { folder: 'tree/', to: 'tree/inner/', dryRun: 'false' });
	expect(inside.status).toBe(500);
	const { requests } = n8n().emulator.stats();
	expect(Object.values(requests).reduce((sum, n) => sum + (n ?? 0), 0)).toBe(0);
	const copied = await call('copy', { folder: 'tree/', to: 'copy/', dryRun: 'false' });
	if (copied.status !== 200) throw new Error(`${copied.text.slice(0, 500)}\n${tail(server!.output(), 30)}`);
	expect(copied.items().filter((item) => item.status === 'copied')).toHaveLength(files.size);
	expect(await identicalUnder('copy/', false)).toBe(files.size);
});

it('moves the folder: failed half-way, run again, every file moved once; an existing file is reported, not replaced', async () => {
	const { emulator } = n8n();
	const api = emulatorClient(emulator, BUCKET.name, BUCKET.region);
	await api.upload('moved/f1.txt', Buffer.from('someone else'), { contentType: 'text/plain' });
	// The service stops deleting once 300 files were moved (an outage): the run fails there.
	emulator.resetStats();
	const running = call('move', { folder: 'tree/', to: 'moved/', dryRun: 'false' });
	while ((emulator.stats().requests.delete ?? 0) < 300) await new Promise((resolve) => setTimeout(resolve, 20));
	emulator.setFaults([{ operation: 'delete', status: 500 }]);
	const first = await running;
	emulator.setFaults([]);
	expect(first.status).toBe(500);
	const half = await identicalUnder('moved/', true);
	expect(half).toBeGreaterThan(200);
	expect(half).toBeLessThan(files.size - 1);
	const again = await call('move', { folder: 'tree/', to: 'moved/', dryRun: 'false' });
	if (again.status !== 200) throw new Error(`${again.text.slice(0, 500)}\n${tail(server!.output(), 30)}`);
	const exists = again.items().filter((item) => item.status === 'exists');
	expect(exists.map((item) => item.key)).toEqual(['moved/f1.txt']);
	expect(await identicalUnder('moved/', true)).toBe(files.size - 1);
	expect((await emulator.readObject(BUCKET.name, BUCKET.region, 'moved/f1.txt'))?.body.toString()).toBe('someone else');
	expect(await emulator.readObject(BUCKET.name, BUCKET.region, 'tree/f1.txt')).toBeDefined();
});
