/**
 * File → Get Info, Copy, Move and Folder → Delete in a real `n8n start`, over webhooks. A 1 GiB
 * file (E2E_COPY_BYTES) is copied byte-identical with n8n's resident memory growing by no more than
 * the README's multipart bound plus the runtime's share of reading a URL (as for Source URL in
 * large-sources.test.ts): Copy streams the source's signed link into the same bounded upload.
 */
import * as path from 'node:path';
import { promises as fsp } from 'node:fs';

import { procStatus, resetPeak } from '../../bench/memory';
import type { RunningN8n } from '../../scripts/real-n8n/n8n';
import { startBigSource, type BigSource } from './bigSource';
import { BUCKET, webhookWorkflow, MIB, activateWorkflow, importWorkflows, startN8n, tail, useRealN8n } from './support';

const SIZE = Number(process.env.E2E_COPY_BYTES ?? 1024 * MIB);
/** A first copy settles the runtime (see large-sources.test.ts), so the measured one shows what grows with size. */
const WARM_UP_SIZE = 128 * MIB + 3;
/** The README's bound at the node's defaults: 8 MiB parts, 4 at once. */
const MULTIPART_BOUND = 8 * MIB * (4 + 1) + MIB;
/** The runtime's share of reading a URL, as allowed for Source URL (large-sources.test.ts). */
const runtimeSlack = (nodeVersion: string) => (Number(nodeVersion.split('.')[0]) >= 21 ? 32 : 64) * MIB;

/** One webhook per operation; each answers with its File Storage node's first item. */
const STEPS = {
	upload: {
		resource: 'file',
		operation: 'upload',
		source: 'url',
		sourceUrl: '={{ $json.query.url }}',
		key: '={{ $json.query.key }}',
	},
	getInfo: {
		resource: 'file',
		operation: 'getInfo',
		fileKey: { __rl: true, mode: 'key', value: '={{ $json.query.key }}' },
	},
	copy: {
		resource: 'file',
		operation: 'copy',
		fileKey: { __rl: true, mode: 'key', value: '={{ $json.query.key }}' },
		destinationKey: '={{ $json.query.to }}',
	},
	move: {
		resource: 'file',
		operation: 'move',
		fileKey: { __rl: true, mode: 'key', value: '={{ $json.query.key }}' },
		destinationKey: '={{ $json.query.to }}',
	},
	deleteFolder: {
		resource: 'folder',
		operation: 'delete',
		folder: { __rl: true, mode: 'path', value: '={{ $json.query.folder }}' },
		dryRun: '={{ $json.query.dryRun === "true" }}',
	},
} as const;
type Step = keyof typeof STEPS;

function workflow(step: Step): object {
	return webhookWorkflow({
		id: `fsE2eOps${step.slice(0, 8).padEnd(8, '0')}`,
		name: `e2e: file operations, ${step}`,
		path: `ops-${step}`,
		typeVersion: 2,
		parameters: STEPS[step],
	});
}

const n8n = useRealN8n({ workflows: [] });
let server: RunningN8n | undefined;
let source: BigSource;

jest.setTimeout(20 * 60_000);

beforeAll(async () => {
	const { instance, filesDir } = n8n();
	source = await startBigSource();
	const steps = Object.keys(STEPS) as Step[];
	const files = steps.map((step) => path.join(filesDir, `ops-${step}.json`));
	await Promise.all(steps.map((step, index) => fsp.writeFile(files[index], JSON.stringify(workflow(step)))));
	await importWorkflows(instance, files);
	for (const step of steps) await activateWorkflow(instance, `fsE2eOps${step.slice(0, 8).padEnd(8, '0')}`);
	server = await startN8n(instance, { webhookPaths: steps.map((step) => `ops-${step}`) });
}, 300_000);

afterAll(async () => {
	await server?.stop();
	await source?.stop();
});

async function call(step: Step, query: Record<string, string>): Promise<Array<Record<string, unknown>>> {
	const response = await fetch(`${server!.url}/webhook/ops-${step}?${new URLSearchParams(query).toString()}`, {
		method: 'POST',
		signal: AbortSignal.timeout(15 * 60_000),
	});
	const text = await response.text();
	if (response.status !== 200)
		throw new Error(`webhook answered ${response.status}: ${text}\n${tail(server!.output(), 30)}`);
	return JSON.parse(text) as Array<Record<string, unknown>>;
}

const upload = async (key: string, size: number) =>
	await call('upload', { url: `${source.url}/${key}?size=${size}`, key });

async function growthOf<T>(step: () => Promise<T>): Promise<{ result: T; growth: number }> {
	const pid = server!.child.pid as number;
	const before = procStatus(pid).rss;
	if (!resetPeak(pid)) throw new Error('cannot reset the peak RSS (/proc/<pid>/clear_refs) on this machine');
	const result = await step();
	return { result, growth: procStatus(pid).hwm - before };
}

const mib = (bytes: number) => `${(bytes / MIB).toFixed(1)} MiB`;

it('copies a large file (1 GiB, or E2E_COPY_BYTES) byte-identical, n8n growing by at most the multipart bound', async () => {
	const { emulator, instance } = n8n();
	await upload('e2e/warm-up.bin', WARM_UP_SIZE);
	await upload('e2e/big.bin', SIZE);
	const first = await growthOf(async () => await call('copy', { key: 'e2e/warm-up.bin', to: 'copies/' }));
	const copy = await growthOf(async () => await call('copy', { key: 'e2e/big.bin', to: 'copies/big copy.bin' }));
	process.stderr.write(
		`file-operations: n8n RSS growth at its peak: first copy (${WARM_UP_SIZE} bytes) ${mib(first.growth)}, ` +
			`copy of ${SIZE} bytes ${mib(copy.growth)}; bound ${mib(MULTIPART_BOUND)}\n`,
	);
	expect(copy.result[0]).toMatchObject({ key: 'copies/big copy.bin', size: SIZE, checked: ['size'] });
	expect(await emulator.objectSha256(BUCKET.name, BUCKET.region, 'copies/big copy.bin')).toBe(
		source.sent.get('/e2e/big.bin'),
	);
	expect(emulator.stats().openMultipartUploads).toBe(0);
	expect(copy.growth).toBeLessThanOrEqual(MULTIPART_BOUND + runtimeSlack(instance.runtime.profile.nodeVersion));
});

it('Get Info, Move and Folder → Delete (dry run, then for real) work in real n8n', async () => {
	const { emulator } = n8n();
	await upload('e2e/ops/a.txt', 1000);
	await upload('e2e/ops/sub/b.txt', 2000);
	const [info] = await call('getInfo', { key: 'e2e/ops/a.txt' });
	expect(info).toMatchObject({ key: 'e2e/ops/a.txt', exists: true, size: 1000, visibility: 'private' });
	const [moved] = await call('move', { key: 'e2e/ops/a.txt', to: 'e2e/ops/done/' });
	expect(moved).toMatchObject({ key: 'e2e/ops/done/a.txt', sourceDeleted: true });
	expect(await emulator.readObject(BUCKET.name, BUCKET.region, 'e2e/ops/a.txt')).toBeUndefined();
	const dry = await call('deleteFolder', { folder: 'e2e/ops/', dryRun: 'true' });
	expect(dry.map((item) => item.key).sort()).toEqual(['e2e/ops/done/a.txt', 'e2e/ops/sub/b.txt']);
	const deleted = await call('deleteFolder', { folder: 'e2e/ops/', dryRun: 'false' });
	expect(deleted.every((item) => item.deleted === true)).toBe(true);
	expect(await emulator.readObject(BUCKET.name, BUCKET.region, 'e2e/ops/sub/b.txt')).toBeUndefined();
});
