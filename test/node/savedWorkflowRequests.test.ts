/**
 * Saved version 1 and 2 workflows send exactly the requests they sent before node version 3
 * (items in parallel over one request pool) existed. The expected logs in
 * `fixtures/savedWorkflowRequests.json` were recorded from the code before that change
 * (`UPDATE_REQUEST_FIXTURES=1 npx jest test/node/savedWorkflowRequests.test.ts` records them
 * again): method, path and query of every request the service saw, in order, with the upload
 * IDs named by their order of appearance. Parts of one upload go out in parallel, so a run of
 * part uploads is compared as a set.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeParameters } from 'n8n-workflow';

import type { HarnessItem } from '../harness';
import { useProxy, viaProxy } from './proxy';
import { BUCKET, MIB, fileItem, randomFile, useEmulator } from './support';
import { runNode } from '../harness';

const FIXTURE = join(__dirname, 'fixtures', 'savedWorkflowRequests.json');
const RECORD = process.env.UPDATE_REQUEST_FIXTURES === '1';

const emulator = useEmulator();
const proxy = useProxy(emulator);

interface Case {
	name: string;
	typeVersion: number;
	parameters: INodeParameters;
	items: () => HarnessItem[];
	continueOnFail?: boolean;
}

const small = (n: number) => Array.from({ length: n }, (_, i) => fileItem(Buffer.alloc(1000 + i, i), `f${i}.bin`));

/** The request log of one run: volatile parts (upload IDs) named, runs of parts sorted. */
function normalized(targets: Array<{ method: string; target: string }>): string[] {
	const ids = new Map<string, string>();
	const name = (id: string) => {
		if (!ids.has(id)) ids.set(id, `<upload ${ids.size + 1}>`);
		return ids.get(id)!;
	};
	const lines = targets.map(({ method, target }) => {
		const [path, query = ''] = target.split('?');
		const shownPath = path.replace(/\/multipart\/([^/]+)\/(upload|complete|cancel)$/, (_, id: string, step: string) => {
			return `/multipart/${name(decodeURIComponent(id))}/${step}`;
		});
		const params = new URLSearchParams(query);
		for (const key of [...params.keys()]) if (/^(signature|timestamp|expires)$/i.test(key)) params.delete(key);
		const uploadId = params.get('uploadId');
		if (uploadId) params.set('uploadId', name(uploadId));
		return `${method} ${shownPath}${params.size ? `?${params.toString()}` : ''}`;
	});
	// Parts of one upload are sent several at once: their order is not part of the guarantee.
	const out: string[] = [];
	let run: string[] = [];
	const flush = () => {
		out.push(...run.sort());
		run = [];
	};
	for (const line of lines) {
		if (/\/multipart\/[^/]+\/upload/.test(line)) run.push(line);
		else {
			flush();
			out.push(line);
		}
	}
	flush();
	return out;
}

const cases: Case[] = [];
for (const typeVersion of [1, 2]) {
	cases.push(
		{
			name: `v${typeVersion} Upload of 3 small files`,
			typeVersion,
			parameters: { resource: 'file', operation: 'upload', key: '', folder: 'saved' },
			items: () => small(3),
		},
		{
			name: `v${typeVersion} Upload of 11 MiB above a 5 MiB threshold, 5 MiB × 2`,
			typeVersion,
			parameters: {
				resource: 'file',
				operation: 'upload',
				key: 'saved/big-upload.bin',
				options: { multipartThreshold: 5, partSize: 5, parallelUploads: 2 },
			},
			items: () => [fileItem(randomFile(11 * MIB))],
		},
		{
			name: `v${typeVersion} Multipart Upload of two files at defaults`,
			typeVersion,
			parameters: { resource: 'file', operation: 'multipartUpload', key: '', folder: 'saved-mp' },
			items: () => [fileItem(randomFile(9 * MIB), 'a.bin'), fileItem(randomFile(17 * MIB), 'b.bin')],
		},
		{
			name: `v${typeVersion} Download of 2 files`,
			typeVersion,
			parameters: { resource: 'file', operation: 'download', fileKey: '={{ $json.key }}' },
			items: () => [{ json: { key: 'saved/f0.bin' } }, { json: { key: 'saved/f1.bin' } }],
		},
		{
			name: `v${typeVersion} Get Signed URL of 2 files`,
			typeVersion,
			parameters: { resource: 'file', operation: 'getSignedUrl', fileKey: '={{ $json.key }}' },
			items: () => [{ json: { key: 'saved/f0.bin' } }, { json: { key: 'saved/f1.bin' } }],
		},
		{
			name: `v${typeVersion} Delete of 3 files, one missing, Continue On Fail`,
			typeVersion,
			parameters: { resource: 'file', operation: 'delete', fileKey: '={{ $json.key }}' },
			items: () => [
				{ json: { key: 'saved/f0.bin' } },
				{ json: { key: 'saved/none.bin' } },
				{ json: { key: 'saved/f2.bin' } },
			],
			continueOnFail: true,
		},
	);
}

describe('saved version 1 and 2 workflows', () => {
	const recorded: Record<string, { requests: string[]; cdn: number; outputs: number }> = {};
	const expected = existsSync(FIXTURE)
		? (JSON.parse(readFileSync(FIXTURE, 'utf8')) as typeof recorded)
		: ({} as typeof recorded);

	afterAll(() => {
		if (RECORD) writeFileSync(FIXTURE, `${JSON.stringify(recorded, null, '\t')}\n`);
	});

	it.each(cases.map((c) => [c.name, c]))('%s sends exactly the requests it sent before version 3', async (_, c) => {
		const testCase = c as Case;
		const cdnBefore = emulator().stats().requests.cdn ?? 0;
		const result = await runNode({
			credentials: viaProxy(emulator(), proxy()),
			typeVersion: testCase.typeVersion,
			parameters: { ...BUCKET, ...testCase.parameters },
			items: testCase.items(),
			continueOnFail: testCase.continueOnFail,
		});
		expect(result.error).toBeUndefined();
		const log = {
			requests: normalized(proxy().exchanges),
			cdn: (emulator().stats().requests.cdn ?? 0) - cdnBefore,
			outputs: result.items.length,
		};
		recorded[testCase.name] = log;
		if (!RECORD) expect(log).toEqual(expected[testCase.name]);
	});
});
