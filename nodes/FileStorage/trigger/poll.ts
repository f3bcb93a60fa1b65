import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { MAX_PARALLEL_REQUESTS } from '../actions/parallelItems';
import { downloadToBinary } from '../download/download';
import { folderPrefix } from '../files/keys';
import { isFolderMarker, MAX_PAGE_SIZE, walkEntries } from '../listing/listing';
import type { BucketRef } from '../transport/api';
import { RunPool, setRunPool } from '../transport/pool';
import { DEFAULT_SETTINGS, FileStorageClient } from '../transport/request';
import { triggerVersionOf } from '../versions';
import { keyFilter, type KeyFilter } from './glob';
import { stillStored } from './stillStored';
import { inWindow } from './window';
import {
	CHANGE_EVENTS,
	advance,
	decodeState,
	diff,
	emptyState,
	encodeState,
	fingerprint,
	keyHash,
	scopeOf,
	stateOf,
	type Change,
	type ChangeEvent,
	type DownloadFailure,
	type ListedFile,
} from './state';

/** Where the trigger keeps its state in the node's static data. */
export const STATE_FIELD = 'fileStorageTrigger';
export const DEFAULT_MAX_FILES_PER_POLL = 100;
/** n8n's own default budget (2.40), used where n8n does not tell (1.x). */
const DEFAULT_POLL_BUDGET_MS = 5 * 60 * 1000;
/** Part of the budget kept free, so the poll returns before n8n gives up on it. */
const BUDGET_RESERVE = 0.1;
/** Polls in which a file's download may fail before it is emitted without its file. */
export const DOWNLOAD_ATTEMPTS = 3;
/** Downloads reserve no body memory; the pool only counts requests. */
const NO_BODY_MEMORY = 0;

interface TriggerSettings {
	where: BucketRef;
	prefix: string;
	recursive: boolean;
	watch: Set<ChangeEvent>;
	filterPattern: string;
	filter: KeyFilter;
	download: boolean;
	binaryField: string;
	maxFiles: number;
	/** Requests (downloads) under way at once, over the whole poll. */
	parallel: number;
	emitExisting: boolean;
	timeoutMs: number;
	maxRetries: number;
}

function required(ctx: IPollFunctions, name: string, label: string): string {
	const value = String(ctx.getNodeParameter(name, '') ?? '').trim();
	if (!value) {
		throw new NodeOperationError(ctx.getNode(), `The parameter '${label}' is empty`, {
			description: `Enter the ${label} of the bucket to watch.`,
		});
	}
	return value;
}

function readSettings(ctx: IPollFunctions): TriggerSettings {
	const node = ctx.getNode();
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const watchFor = ctx.getNodeParameter('watchFor', ['created']) as string[];
	const watch = new Set(CHANGE_EVENTS.filter((event) => watchFor.includes(event)));
	if (watch.size === 0) {
		throw new NodeOperationError(node, "The parameter 'Watch For' is empty", {
			description: 'Choose at least one of File Created, File Updated and File Deleted.',
		});
	}
	const filterPattern = String(options.fileNameFilter ?? '');
	let filter: KeyFilter;
	try {
		filter = keyFilter(filterPattern);
	} catch (error) {
		throw new NodeOperationError(
			node,
			`The File Name Filter "${filterPattern}" is not valid: ${(error as Error).message}`,
			{ description: 'Use * (any characters but /), ** (any folders), ? and [abc], e.g. *.pdf or invoices/*.csv.' },
		);
	}
	const maxFiles = Number(options.maxFilesPerPoll ?? DEFAULT_MAX_FILES_PER_POLL);
	const timeoutSeconds = Number(options.timeout ?? DEFAULT_SETTINGS.timeoutMs / 1000);
	const maxRetries = Number(options.maxRetries ?? DEFAULT_SETTINGS.maxRetries);
	const parallel = Number(options.parallelRequests ?? triggerVersionOf(ctx).downloadParallelRequests);
	return {
		where: {
			bucket: required(ctx, 'bucketName', 'Bucket Name'),
			region: required(ctx, 'region', 'Region'),
		},
		prefix: folderPrefix(String(ctx.getNodeParameter('folder', '', { extractValue: true }) ?? '')),
		recursive: Boolean(ctx.getNodeParameter('includeSubfolders', false)),
		watch,
		filterPattern,
		filter,
		download: options.downloadFile === true,
		binaryField: String(options.binaryPropertyName || 'data'),
		maxFiles: Number.isFinite(maxFiles) && maxFiles >= 1 ? Math.floor(maxFiles) : DEFAULT_MAX_FILES_PER_POLL,
		parallel: Number.isFinite(parallel) ? Math.min(Math.max(Math.floor(parallel), 1), MAX_PARALLEL_REQUESTS) : 1,
		emitExisting: options.emitExistingFiles === true,
		timeoutMs: Math.max(1, timeoutSeconds) * 1000,
		maxRetries: Math.min(Math.max(0, Math.floor(maxRetries)), 10),
	};
}

function pollBudgetMs(ctx: IPollFunctions): number {
	// n8n 1.x has no budget; 2.40 gives one (5 minutes unless configured).
	const budget = (ctx as Partial<IPollFunctions>).getPollBudgetMs?.call(ctx);
	return typeof budget === 'number' && budget > 0 ? budget : DEFAULT_POLL_BUDGET_MS;
}

interface Scan {
	/** Each matching file once. */
	files: ListedFile[];
	/** Whether every folder answered in one request, so what is absent is surely absent. */
	settled: boolean;
}

/** Every matching file under the folder; throws (and nothing is saved) if any page fails. */
async function scan(
	ctx: IPollFunctions,
	client: FileStorageClient,
	settings: TriggerSettings,
	deadline: number,
): Promise<Scan> {
	const files = new Map<string, ListedFile>();
	let settled = true;
	const walk = walkEntries(client, {
		where: settings.where,
		prefix: settings.prefix,
		pageSize: MAX_PAGE_SIZE,
		recursive: settings.recursive,
		onFolder: (listing) => {
			if (listing.pages > 1) settled = false;
		},
	});
	for await (const entry of walk) {
		if (Date.now() > deadline) {
			throw new NodeOperationError(
				ctx.getNode(),
				`The scan of '${settings.where.bucket}' did not finish within this poll's time`,
				{
					description:
						'Nothing was emitted and the saved state is unchanged. Watch a smaller folder (or turn off Include Subfolders), or give polls more time.',
				},
			);
		}
		// A folder's marker (its own key, e.g. 'reports/') is a folder, not a file to report.
		if (entry.type !== 'file' || isFolderMarker(entry) || !settings.filter(entry.path)) continue;
		files.set(entry.path, {
			key: entry.path,
			name: String(entry.name ?? entry.path.slice(entry.path.lastIndexOf('/') + 1)),
			size: typeof entry.size === 'number' ? entry.size : null,
			content_type: typeof entry.content_type === 'string' ? entry.content_type : null,
			last_modified: typeof entry.last_modified === 'string' ? entry.last_modified : null,
			visibility: typeof entry.visibility === 'string' ? entry.visibility : null,
		});
	}
	return { files: [...files.values()], settled };
}

function outputJson(settings: TriggerSettings, change: Change): IDataObject {
	const file = change.file;
	return {
		event: change.event,
		key: change.key,
		name: file?.name ?? change.key.slice(change.key.lastIndexOf('/') + 1),
		size: file?.size ?? null,
		content_type: file?.content_type ?? null,
		last_modified: file?.last_modified ?? null,
		visibility: file?.visibility ?? null,
		bucket: settings.where.bucket,
		region: settings.where.region,
	};
}

async function toItem(
	ctx: IPollFunctions,
	client: FileStorageClient,
	settings: TriggerSettings,
	change: Change,
): Promise<INodeExecutionData> {
	const item: INodeExecutionData = { json: outputJson(settings, change) };
	if (settings.download && change.file) {
		const { binary } = await downloadToBinary({
			ctx,
			client,
			where: settings.where,
			key: change.key,
			fileName: change.file.name,
			itemIndex: 0,
			expectedSize: change.file.size ?? undefined,
		});
		item.binary = { [settings.binaryField]: binary };
	}
	return item;
}

/** A file given up on after DOWNLOAD_ATTEMPTS failed polls: its change, with the error instead of the file. */
function withoutFile(settings: TriggerSettings, change: Change, error: unknown): INodeExecutionData {
	return { json: { ...outputJson(settings, change), error: (error as Error).message } };
}

/** What n8n's log says of a download held back for the next poll (the poll itself does not fail). */
function downloadWarning(key: string, error: unknown, attempts: number): string {
	return `File Storage Trigger: the download of '${key}' failed (${attempts} of ${DOWNLOAD_ATTEMPTS} polls); the file is tried again with the next poll, and after ${DOWNLOAD_ATTEMPTS} it is emitted without its file, with the error in the item's "error" field. ${(error as Error).message}`;
}

/** The poll's failure when a deletion could not be checked and nothing else came of it. */
function checkFailed(ctx: IPollFunctions, key: string, error: unknown): NodeOperationError {
	const { message } = error as { message: string };
	return new NodeOperationError(ctx.getNode(), `Could not check whether '${key}' was deleted: ${message}`, {
		description:
			'The folder was read over several pages, so a file the scan did not list is only reported deleted once the service confirms it is gone. Nothing is reported until it can; the next poll asks again.',
	});
}

function newest(files: ListedFile[]): ListedFile | undefined {
	let best: ListedFile | undefined;
	let bestTime = Number.NEGATIVE_INFINITY;
	for (const file of files) {
		const time = Date.parse(String(file.last_modified ?? ''));
		const at = Number.isFinite(time) ? time : Number.NEGATIVE_INFINITY;
		if (!best || at > bestTime || (at === bestTime && file.key > best.key)) {
			best = file;
			bestTime = at;
		}
	}
	return best;
}

/**
 * One poll: a complete scan of the folder compared with the saved state. The state moves
 * forward only after the scan succeeded, and only past what is emitted: a file whose download
 * fails stays a change for the next poll (until DOWNLOAD_ATTEMPTS polls gave up on it), and a
 * deletion a scan over several pages found is only emitted once the service says it is gone.
 */
export async function pollFileStorage(ctx: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const startedAt = Date.now();
	const deadline = startedAt + pollBudgetMs(ctx) * (1 - BUDGET_RESERVE);
	const settings = readSettings(ctx);
	// One pool per poll: a 429 or 503 pauses every download of it. Without one (a single request
	// at a time, version 1's default) the poll sends exactly what it always sent.
	if (settings.download && settings.parallel > 1) {
		setRunPool(ctx, new RunPool(settings.parallel, NO_BODY_MEMORY));
	}
	const client = await FileStorageClient.create(ctx, 0, {
		timeoutMs: settings.timeoutMs,
		maxRetries: settings.maxRetries,
	});
	const { files, settled } = await scan(ctx, client, settings, deadline);

	if (ctx.getMode() === 'manual') {
		// Fetch Test Event: a sample, and the saved state is left alone.
		const sample = newest(files);
		if (!sample) {
			const where = `${settings.where.bucket}/${settings.prefix}`;
			throw new NodeOperationError(
				ctx.getNode(),
				`No file matches in '${where}'${settings.filterPattern.trim() ? ` for the filter "${settings.filterPattern.trim()}"` : ''}`,
				{
					description:
						'Upload a matching file (or change Folder, Include Subfolders or File Name Filter) and fetch again.',
				},
			);
		}
		return [[await toItem(ctx, client, settings, { event: 'created', key: sample.key, file: sample })]];
	}

	const keepKeys = settings.watch.has('deleted');
	const scope = scopeOf({
		bucket: settings.where.bucket,
		region: settings.where.region,
		prefix: settings.prefix,
		recursive: settings.recursive,
		filter: settings.filterPattern,
		keepKeys,
	});
	const staticData = ctx.getWorkflowStaticData('node');
	let previous = decodeState(staticData[STATE_FIELD], scope);
	if (!previous) {
		if (!settings.emitExisting) {
			// First poll (or the watched files changed): what exists now is the baseline.
			staticData[STATE_FIELD] = encodeState(stateOf(files, keepKeys), scope) as unknown as IDataObject;
			return null;
		}
		previous = emptyState(keepKeys);
	}

	const watched = diff(previous, files, settled).filter((change) => settings.watch.has(change.event));
	const items: INodeExecutionData[] = [];
	const withheld: Change[] = [];
	const failures = new Map<string, DownloadFailure>();
	const warnings: string[] = [];
	let uncheckable: { key: string; error: unknown } | undefined;
	let checks = 0;
	// Deletions a scan over several pages found come last and cost a check each: one by one, below.
	const checkedFrom = firstUnconfirmed(watched);
	// Only emitted items count against Max Files Per Poll: a held-back file does not hold up the next.
	// Out of time: no further file starts; what is ready is returned, the rest comes with the next poll.
	const { outcomes, started } = await inWindow(
		checkedFrom,
		{
			parallel: settings.parallel,
			room: settings.maxFiles,
			givesUp: (index) => attemptsBefore(previous!.failures, watched[index]) + 1 >= DOWNLOAD_ATTEMPTS,
			late: () => Date.now() > deadline,
		},
		async (index) => await toItem(ctx, client, settings, watched[index]),
	);
	// In the order of the changes, whichever download finished first.
	for (const [index, outcome] of outcomes.entries()) {
		const change = watched[index];
		if ('item' in outcome) {
			items.push(outcome.item);
			continue;
		}
		// Only a download fails here. The file waits for the next poll, the others go on.
		const { error } = outcome;
		const attempts = attemptsBefore(previous.failures, change) + 1;
		if (attempts >= DOWNLOAD_ATTEMPTS) {
			items.push(withoutFile(settings, change, error));
			continue;
		}
		failures.set(keyHash(change.key), { fingerprint: fingerprint(change.file!), attempts });
		withheld.push(change);
		warnings.push(downloadWarning(change.key, error, attempts));
	}
	let next = started;
	// The window stopped short (no room, out of time): the rest waits. Otherwise the checks follow.
	const checking = started === checkedFrom;
	for (; checking && next < watched.length && items.length < settings.maxFiles; next++) {
		if (next > 0 && Date.now() > deadline) break;
		const change = watched[next];
		// Each check is a request, so a poll makes at most Max Files Per Poll.
		if (uncheckable || checks >= settings.maxFiles) break;
		checks++;
		try {
			// Still there: the scan missed it (files moved across a page boundary), no change.
			if (await stillStored(client, settings.where, change.key)) {
				withheld.push(change);
				continue;
			}
		} catch (error) {
			uncheckable = { key: change.key, error };
			withheld.push(change);
			continue;
		}
		// A deletion: no file to download.
		items.push({ json: outputJson(settings, change) });
	}
	for (const change of watched.slice(next)) {
		withheld.push(change);
		const attempts = attemptsBefore(previous.failures, change);
		if (attempts > 0) failures.set(keyHash(change.key), { fingerprint: fingerprint(change.file!), attempts });
	}
	// Nothing came of this poll but a deletion it could not check, and there is no failure count to
	// keep: fail it, so the reason shows in n8n (nothing is lost: the next poll finds the same).
	if (items.length === 0 && uncheckable && warnings.length === 0) {
		throw checkFailed(ctx, uncheckable.key, uncheckable.error);
	}
	const state = advance(previous, files, withheld, settled);
	state.failures = failures;
	staticData[STATE_FIELD] = encodeState(state, scope) as unknown as IDataObject;
	// A poll that throws saves nothing under n8n's durable scheduler, so the failure counts would
	// never advance: held-back downloads are logged, and the poll returns what it has.
	if (uncheckable) warnings.push(checkFailed(ctx, uncheckable.key, uncheckable.error).message);
	for (const warning of warnings) ctx.logger.warn(warning);
	return items.length > 0 ? [items] : null;
}

/** Where the deletions that need a check start (they come last); the length when there are none. */
function firstUnconfirmed(watched: Change[]): number {
	const at = watched.findIndex((change) => change.unconfirmed === true);
	return at < 0 ? watched.length : at;
}

/** Polls in which this version of the changed file failed to download so far. */
function attemptsBefore(failures: Map<string, DownloadFailure> | undefined, change: Change): number {
	const failure = change.file ? failures?.get(keyHash(change.key)) : undefined;
	return failure && failure.fingerprint === fingerprint(change.file!) ? failure.attempts : 0;
}
