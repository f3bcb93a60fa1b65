import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { folderPrefix, keyProblem } from '../../files/keys';
import { existenceOf } from '../../files/proof';
import type { Item } from '../../item';
import { listContents, type BucketRef, type ListEntry } from '../../transport/api';
import { failedAnswer } from '../../transport/apiAnswer';
import { destinationBucketOf } from '../file/copyFields';
import { keyRefusal, ONE_LOCATION_MOVE_WORDS, type CopyJob } from '../file/copyFile';
import { refuseUnreadableLinks } from '../file/unreadableLink';
import { folderOf } from '../folder';
import { failureItem } from '../parallelItems';
import { transferFile, type FileStatus } from './fileTransfer';
import { sourceFiles } from './sourceFiles';

type Verb = CopyJob['verb'];

/** One Folder → Copy or Move: where from, where to, and how. */
interface Plan {
	verb: Verb;
	from: BucketRef & { prefix: string };
	to: BucketRef & { prefix: string };
	recursive: boolean;
	dryRun: boolean;
	options: IDataObject;
}

function where(ref: BucketRef & { prefix: string }): string {
	return `'${ref.prefix || '/'}' in bucket '${ref.bucket}' (region ${ref.region})`;
}

/**
 * Another bucket of the account: a key has one CDN location there whatever its bucket (it names the
 * access id and the key, spec §3.9). A Move to the source's own path is refused (no read of a copy
 * there can be told from the source). So is any overlap of the two key ranges, either way
 * (`nest/` → `nest/b/`, `a/b/` → `a/`, a whole bucket → a folder): a copy this run writes could
 * have the key of a source file not read yet, whose read would then be answered with the run's
 * own copy, copied on as that file (and for a Move its source deleted, its bytes never read).
 */
function refuseOneLocationOverlap(item: Item, { verb, from, to }: Plan): void {
	if (verb === 'Move' && to.prefix === from.prefix) {
		throw item.fail(
			`Move: the destination ${where(to)} is the source folder's own path in another bucket`,
			`${ONE_LOCATION_MOVE_WORDS} Move the folder to another path in that bucket (e.g. archive/${from.prefix}), or Copy it there with Folder → Copy and delete the source with Folder → Delete once checked.`,
		);
	}
	if (to.prefix === from.prefix || !(to.prefix.startsWith(from.prefix) || from.prefix.startsWith(to.prefix))) return;
	const inside = to.prefix.startsWith(from.prefix)
		? `the destination ${where(to)} is inside the source folder's path '${from.prefix || '/'}'`
		: `the source folder ${where(from)} is inside the destination's path '${to.prefix || '/'}'`;
	// A whole bucket overlaps every folder of another: the copies a run writes there have the keys (so the CDN
	// locations) of sources, this run's or a later run's, and their dates need not tell them apart.
	const instead = from.prefix
		? `Pick a Destination Folder outside the source's path (e.g. archive/${from.prefix}), or do it in two steps: to a folder outside it in that bucket first, then within that bucket to where you want it.`
		: 'A whole bucket goes to another bucket only at the same paths: Copy it to / (the top) there, or copy or move one top folder at a time.';
	throw item.fail(
		`${verb}: ${inside} in another bucket`,
		`A file has one CDN location per key in the account, whatever its bucket (it names the key only): a copy this run writes there could have the key of a source file not read yet, and that file's read could then be answered with the copy, so it would be ${verb === 'Copy' ? 'copied' : 'moved'} without its own bytes. Nothing was changed. ${instead}`,
	);
}

/**
 * The plan of the item, refused before any request when its destination is inside its source, or
 * either folder is one the CDN reads as a transformation.
 */
function planOf(item: Item, verb: Verb): Plan {
	const source = item.bucket();
	const options = item.options();
	const typed = String(item.param('destinationFolder', '', true) ?? '');
	if (!typed.trim()) {
		throw item.fail(
			"The parameter 'Destination Folder' is empty",
			'Pick the folder the files go to, e.g. archive/2026-11/, or / for the top of the bucket.',
		);
	}
	const plan: Plan = {
		verb,
		from: { ...source, prefix: folderPrefix(folderOf(item)) },
		to: { ...destinationBucketOf(options, source), prefix: folderPrefix(typed) },
		recursive: item.param('includeSubfolders', true) as boolean,
		dryRun: item.param('dryRun', false) as boolean,
		options: { ...options, replace: item.param('replace', false) === true },
	};
	if (verb === 'Move' && !plan.from.prefix && options.allowWholeBucket !== true) {
		throw item.fail(
			"The parameter 'Folder' is empty: that would move every file of the bucket",
			'Pick the folder to move. To move the whole bucket on purpose, turn on the Allow Whole Bucket option (try Dry Run first). Nothing was changed.',
		);
	}
	// A folder the service would refuse in every key below it: said once, before the listing.
	if (plan.to.prefix) item.validKey(plan.to.prefix, 'Destination Folder');
	// Every file's source and destination is below them: refused here, before the listing (a whole bucket, or a
	// folder to the top of a bucket, is judged per file, where a subfolder may be the first folder of the key).
	const folders = { from: plan.from.prefix, to: plan.to.prefix };
	refuseUnreadableLinks(item, { verb, field: 'Destination Folder', ...folders, level: 'folder' });
	const sameBucket = plan.to.bucket === plan.from.bucket && plan.to.region === plan.from.region;
	if (!sameBucket) refuseOneLocationOverlap(item, plan);
	if (sameBucket && plan.to.prefix.startsWith(plan.from.prefix)) {
		const same = plan.to.prefix === plan.from.prefix;
		throw item.fail(
			`${verb}: the destination ${where(plan.to)} is ${same ? 'the source folder itself' : `inside the source folder '${plan.from.prefix || '/'}'`}`,
			`Its files would be ${verb === 'Copy' ? 'copied' : 'moved'} into themselves. Pick a Destination Folder outside the source folder (or another bucket in the options). Nothing was changed.`,
		);
	}
	return plan;
}

/** The job of one listed file: the same path below the destination folder. */
function jobOf(plan: Plan, entry: ListEntry): CopyJob {
	// The destination's bucket as the plan named it (the fields that name it go with it, for a 404's words).
	const { prefix, ...destination } = plan.to;
	return {
		verb: plan.verb,
		from: { bucket: plan.from.bucket, region: plan.from.region, key: entry.path },
		to: { ...destination, key: `${prefix}${entry.path.slice(plan.from.prefix.length)}` },
		field: 'Destination Folder',
		options: plan.options,
	};
}

/**
 * Why the keys alone refuse a file's copy, nothing read or written: a destination key the service
 * does not take (over 1,024 bytes below the Destination Folder), or a refusal of File → Copy and Move
 * (a '.' segment, a link the CDN reads as a transformation, see keyRefusal). The file is `refused`,
 * its source kept, and the run goes on: another run would give the same answer, so it stops nothing.
 */
function refusalOf(item: Item, job: CopyJob): string | undefined {
	const none = `Nothing was copied${job.verb === 'Move' ? ' or deleted' : ''}: the source stays.`;
	const problem = keyProblem(job.to.key);
	if (problem) {
		const shown = job.to.key.length > 80 ? `${job.to.key.slice(0, 60)}…${job.to.key.slice(-10)}` : job.to.key;
		return (
			`${job.verb}: its destination "${shown}" (below parameter 'Destination Folder') is not a key the service takes: ${problem}. ` +
			`${none} Pick a shorter Destination Folder, or ${job.verb.toLowerCase()} this file on its own with File → ${job.verb} to a shorter key.`
		);
	}
	const refusal = keyRefusal(item, job);
	return refusal && `${refusal.message}. ${refusal.description ?? ''}`.trim();
}

/** Whether a file's destination is itself under the source folder: written there, it would be read as a source. */
function writesIntoSource(plan: Plan, job: CopyJob): boolean {
	const { from, to } = plan;
	return to.bucket === from.bucket && to.region === from.region && job.to.key.startsWith(from.prefix);
}

/** How the run went: outputs by the order files were listed, counts by status, the first failure. */
interface Progress {
	outputs: INodeExecutionData[][];
	counts: Record<string, number>;
	failure?: { key: string; error: Error };
	listed: number;
}

function count(progress: Progress, status: FileStatus | 'failed') {
	progress.counts[status] = (progress.counts[status] ?? 0) + 1;
}

/** One listed file, through transferFile; its failure is its own item with Continue On Fail. */
async function oneFile(item: Item, plan: Plan, entry: ListEntry, progress: Progress, index: number) {
	const source = { key: entry.path, bucket: plan.from.bucket, region: plan.from.region };
	let job: CopyJob | undefined;
	try {
		if (entry.path === plan.from.prefix && !plan.to.prefix) {
			// The source folder's own marker, into the top of the bucket: the top has no marker to write.
			const reason =
				'The folder marker of the source folder has no place at the top of the bucket; it was left as it is.';
			progress.outputs[index] = item.output({ status: 'kept', key: null, source, reason });
			count(progress, 'kept');
			return;
		}
		job = jobOf(plan, entry);
		const refused = refusalOf(item, job);
		if (refused !== undefined) {
			progress.outputs[index] = item.output({ status: 'refused', key: job.to.key, source, reason: refused });
			count(progress, 'refused');
			return;
		}
		if (writesIntoSource(plan, job)) {
			// A/b/ → a/: a/b/b/x would go to a/b/x, another file this run reads (and a Move deletes).
			const reason = `Its destination '${job.to.key}' is inside the source folder '${plan.from.prefix}', where this run reads (and a Move deletes) files: it was left as it is.`;
			progress.outputs[index] = item.output({ status: 'kept', key: job.to.key, source, reason });
			count(progress, 'kept');
			return;
		}
		const { status, json } = await transferFile(item, job, plan.dryRun);
		const base = { key: job.to.key, bucket: job.to.bucket, region: job.to.region, size: entry.size ?? null, source };
		progress.outputs[index] = item.output({ status, ...base, ...json });
		count(progress, status);
	} catch (error) {
		count(progress, 'failed');
		if (!item.ctx.continueOnFail()) {
			progress.failure ??= { key: entry.path, error: error as Error };
			return;
		}
		const failed = failureItem(item.ctx, error, item.index);
		failed.json = { status: 'failed', key: job?.to.key ?? null, source, ...failed.json };
		progress.outputs[index] = [failed];
	}
}

/**
 * The files of the listing, several at once in version 3 (their requests and bodies go through
 * the run's pool and memory budget), one by one before it. The listing is read as files are
 * needed. A failure without Continue On Fail starts no further file; those under way finish.
 */
async function runFiles(item: Item, plan: Plan, progress: Progress) {
	const client = await item.client();
	const { bucket, region, prefix } = plan.from;
	// The folder whose listing is under way: a failure of the listing names it (a sub-folder's, maybe).
	let listing = prefix;
	const onFolderStart = (folder: string) => (listing = folder);
	const walk = {
		where: { bucket, region },
		prefix,
		recursive: plan.recursive,
		moving: plan.verb === 'Move',
		onFolderStart,
	};
	const files = sourceFiles(client, walk);
	const signal = item.ctx.getExecutionCancelSignal?.();
	const width = item.pool ? item.pool.parallel * 2 : 1;
	let pulling: Promise<unknown> = Promise.resolve();
	// One pull of the listing at a time: a generator is not to be advanced twice at once.
	const next = async () => {
		const pulled = pulling.then(async () => await files.next());
		pulling = pulled.catch(() => undefined);
		return await pulled;
	};
	const worker = async () => {
		while (!progress.failure && signal?.aborted !== true) {
			let pulled: IteratorResult<ListEntry>;
			try {
				pulled = await next();
			} catch (error) {
				// The listing failed: no further file starts, the ones under way finish (Promise.all waits). Named
				// by the folder whose listing failed (a sub-folder's, with Include Subfolders), not the one asked for.
				const folder = { ...plan.from, prefix: listing };
				progress.failure ??= { key: `(listing of ${where(folder)})`, error: error as Error };
				return;
			}
			if (pulled.done) return;
			const index = progress.listed++;
			await oneFile(item, plan, pulled.value, progress, index);
		}
	};
	await Promise.all(Array.from({ length: width }, worker));
}

/**
 * A destination in another bucket or region that does not exist, found before the listing by one request (the
 * top of that bucket, one entry): the API's own 404 to it can only mean the bucket is missing, the top of a bucket
 * being always there. Else each file would be read from the source and then refused by its upload, one at a
 * time, with the same words. Any other failure proves nothing here: each file's own path meets it.
 */
async function missingDestination(item: Item, plan: Plan): Promise<Error | undefined> {
	if (!plan.to.fields) return undefined;
	const client = await item.client();
	const found = await listContents(client, plan.to, '', 1, 1).then(
		() => undefined,
		// Only the API's own "not found" body (existenceOf): a gateway's JSON 404 (no route) shows nothing of the bucket.
		(error: unknown) =>
			existenceOf(failedAnswer(error)) === 'absent' ? (error as Error & { description?: string }) : undefined,
	);
	if (!found) return undefined;
	return item.fail(
		`${plan.verb}: the destination bucket '${plan.to.bucket}' (region ${plan.to.region}) was not found`,
		`${found.description ?? ''} Nothing was read, ${plan.verb === 'Copy' ? 'copied' : 'moved or deleted'}.`.trim(),
	);
}

function tally(progress: Progress): string {
	const parts = Object.entries(progress.counts).map(([status, n]) => `${n} ${status}`);
	return parts.length ? parts.join(', ') : 'no file handled';
}

/**
 * Folder → Copy and Folder → Move: every file under the source folder through the per-file path
 * of File → Copy and Move, to the same path below the destination folder. One item per file, and
 * a summary item on request. Run again after a stop, it finishes the job (see fileTransfer.ts).
 */
export async function transferFolder(item: Item, verb: Verb): Promise<INodeExecutionData[]> {
	const plan = planOf(item, verb);
	const progress: Progress = { outputs: [], counts: {}, listed: 0 };
	const missing = await missingDestination(item, plan);
	if (missing && !item.ctx.continueOnFail()) throw missing;
	if (missing)
		progress.failure = { key: `(destination bucket '${plan.to.bucket}' (region ${plan.to.region}))`, error: missing };
	else await runFiles(item, plan, progress);
	const { failure } = progress;
	if (failure && !item.ctx.continueOnFail()) {
		const failed = failure.error as Error & { description?: string };
		throw item.fail(
			`${verb} of the folder ${where(plan.from)} stopped: '${failure.key}' failed: ${failed.message}`,
			`${failed.description ? `${failed.description} ` : ''}So far: ${tally(progress)}. Files already ${verb === 'Copy' ? 'copied' : 'moved'} stay so; run the node again to finish: a file already done is not done twice.`,
		);
	}
	const output: INodeExecutionData[] = [];
	for (const items of progress.outputs) for (const one of items ?? []) output.push(one);
	// The files handled, whatever their status (a failed listing is no file, but it is counted `failed` below).
	const files = Object.values(progress.counts).reduce((sum, n) => sum + n, 0);
	if (failure) {
		// With Continue On Fail only the listing's (or the missing destination bucket's) failure is here (a file's is
		// its own item). It is a `failed` item, so the summary counts it: a run stopped so must not read as a clean one.
		const failed = failureItem(item.ctx, failure.error, item.index);
		output.push({ ...failed, json: { status: 'failed', key: null, source: failure.key, ...failed.json } });
		count(progress, 'failed');
	}
	if (plan.options.summary === true) {
		const run = { summary: true, operation: verb.toLowerCase(), dryRun: plan.dryRun, files };
		// `stopped`: files may be left unhandled (the listing failed, or the destination bucket is missing).
		output.push(...item.output({ ...run, ...progress.counts, ...(failure ? { stopped: true } : {}) }));
	}
	return output;
}
