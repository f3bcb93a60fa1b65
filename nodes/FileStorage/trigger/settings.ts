import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { MAX_PARALLEL_REQUESTS } from '../actions/parallelItems';
import { folderPrefix } from '../files/keys';
import type { BucketRef } from '../transport/api';
import { DEFAULT_SETTINGS } from '../transport/request';
import { triggerVersionOf } from '../versions';
import { keyFilter, type KeyFilter } from './glob';
import { CHANGE_EVENTS, type ChangeEvent } from './state';

export const DEFAULT_MAX_FILES_PER_POLL = 100;

/** The trigger's parameters, read and checked once per poll. */
export interface TriggerSettings {
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

function watchedEvents(ctx: IPollFunctions): Set<ChangeEvent> {
	const watchFor = ctx.getNodeParameter('watchFor', ['created']) as string[];
	const watch = new Set(CHANGE_EVENTS.filter((event) => watchFor.includes(event)));
	if (watch.size === 0) {
		throw new NodeOperationError(ctx.getNode(), "The parameter 'Watch For' is empty", {
			description: 'Choose at least one of File Created, File Updated and File Deleted.',
		});
	}
	return watch;
}

function fileNameFilter(ctx: IPollFunctions, pattern: string): KeyFilter {
	try {
		return keyFilter(pattern);
	} catch (error) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The File Name Filter "${pattern}" is not valid: ${(error as Error).message}`,
			{ description: 'Use * (any characters but /), ** (any folders), ? and [abc], e.g. *.pdf or invoices/*.csv.' },
		);
	}
}

/** Out-of-range numbers fall back or are clamped rather than failing a poll that runs unattended. */
function limits(ctx: IPollFunctions, options: IDataObject) {
	const maxFiles = Number(options.maxFilesPerPoll ?? DEFAULT_MAX_FILES_PER_POLL);
	const timeoutSeconds = Number(options.timeout ?? DEFAULT_SETTINGS.timeoutMs / 1000);
	const maxRetries = Number(options.maxRetries ?? DEFAULT_SETTINGS.maxRetries);
	const parallel = Number(options.parallelRequests ?? triggerVersionOf(ctx).downloadParallelRequests);
	return {
		maxFiles: Number.isFinite(maxFiles) && maxFiles >= 1 ? Math.floor(maxFiles) : DEFAULT_MAX_FILES_PER_POLL,
		parallel: Number.isFinite(parallel) ? Math.min(Math.max(Math.floor(parallel), 1), MAX_PARALLEL_REQUESTS) : 1,
		timeoutMs: Math.max(1, timeoutSeconds) * 1000,
		maxRetries: Math.min(Math.max(0, Math.floor(maxRetries)), 10),
	};
}

/**
 * Checked in the order releases always checked (Watch For, File Name Filter, Bucket Name, Region),
 * so a trigger with several mistakes keeps naming the same one first.
 */
export function readSettings(ctx: IPollFunctions): TriggerSettings {
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const watch = watchedEvents(ctx);
	const filterPattern = String(options.fileNameFilter ?? '');
	const filter = fileNameFilter(ctx, filterPattern);
	const { maxFiles, parallel, timeoutMs, maxRetries } = limits(ctx, options);
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
		maxFiles,
		parallel,
		emitExisting: options.emitExistingFiles === true,
		timeoutMs,
		maxRetries,
	};
}
