/**
 * A service that serves at most `cap` entries a list page whatever the limit asked, for the Folder → Copy and Move
 * suites that check a run never ends as a plain success with files it never listed: the folder they seed, the
 * capped answers, the run and the count of files that reached the destination.
 */
import type { Emulator } from '../emulator';
import { emulatorClient } from '../emulator/conformance/client';
import type { HookCall } from '../emulator/history';
import { runNode } from '../harness';
import { BUCKET, credentialsFor, HERE } from './support';

const path = (value: string) => ({ __rl: true, mode: 'path', value });
const name = (n: number) => `f${String(n).padStart(3, '0')}.txt`;

/**
 * List answers of at most `cap` entries (page N starts at (N − 1) × cap) that still name the limit asked as their
 * `items_per_page` and count their pages by it; `total_items` is the stored count, or `counted` where given (a count
 * lagging behind the rows).
 */
export function capListPages(emulator: Emulator, cap: number, counted?: number): void {
	const api = emulatorClient(emulator);
	emulator.adversary.setHooks({
		after: async (call: HookCall, reply: { status: number; body: unknown }) => {
			const limit = Number(call.query.get('limit') ?? 20);
			if (call.op !== 'list' || limit <= cap) return;
			const page = Number(call.query.get('page') ?? 1);
			const capped = await api.list({ prefix: call.query.get('prefix') ?? '', page, limit: cap });
			const body = JSON.parse(capped.body.toString()) as { data: { pagination: Record<string, number> } };
			const total = counted ?? body.data.pagination.total_items;
			Object.assign(body.data.pagination, {
				...(counted === undefined ? {} : { total_items: counted }),
				total_pages: Math.max(1, Math.ceil(total / limit)),
				items_per_page: limit,
			});
			reply.body = body;
		},
	});
}

/** Stores `files` private files f000.txt… under `folder`, file n holding `file n`. */
async function seedFolder(emulator: Emulator, folder: string, files: number): Promise<void> {
	await Promise.all(
		Array.from({ length: files }, async (_, n) =>
			emulator.adversary.put(HERE, `${folder}${name(n)}`, Buffer.from(`file ${n}`), {
				visibility: 'private',
				writer: 'setup',
			}),
		),
	);
}

/** Runs Folder → `operation` from `from` to `to` (with its summary) through n8n-core's engine. */
async function runFolderTransfer(emulator: Emulator, operation: 'copy' | 'move', from: string, to: string) {
	return await runNode({
		credentials: credentialsFor(emulator),
		parameters: {
			...BUCKET,
			resource: 'folder',
			operation,
			folder: path(from),
			destinationFolder: path(to),
			options: { summary: true },
		},
	});
}

/** How many of the `files` seeded files stand under `to` with their own content. */
async function countArrived(emulator: Emulator, to: string, files: number): Promise<number> {
	let done = 0;
	for (let n = 0; n < files; n++) {
		const stored = await emulator.readObject(HERE.name, HERE.region, `${to}${name(n)}`);
		if (stored?.body.toString() === `file ${n}`) done += 1;
	}
	return done;
}

/**
 * Seeds `files` files under `from`, caps the list answers (see capListPages), runs Folder → `operation` to `to` and
 * lifts the cap: how many files arrived with their content, and the run's error.
 */
export async function transferOverCappedService(
	emulator: Emulator,
	run: { operation: 'copy' | 'move'; from: string; to: string; files: number },
	service: { cap: number; counted?: number },
) {
	await seedFolder(emulator, run.from, run.files);
	capListPages(emulator, service.cap, service.counted);
	const result = await runFolderTransfer(emulator, run.operation, run.from, run.to);
	emulator.adversary.setHooks(undefined);
	return { done: await countArrived(emulator, run.to, run.files), error: result.error };
}
