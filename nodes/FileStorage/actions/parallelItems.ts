import type { IExecuteFunctions, INodeExecutionData, INodeProperties, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { MIB } from '../upload/parts';
import { RunPool } from '../transport/pool';
import { NODE_VERSIONS, perVersion, type NodeVersion } from '../versions';

export const MAX_PARALLEL_REQUESTS = 64;
const MIN_UPLOAD_MEMORY_MIB = 5;

type ParallelDefaults = NonNullable<NodeVersion['parallelItems']>;

/** A field of the versions that run items in parallel only, with their defaults. */
function inParallelVersions(build: (defaults: ParallelDefaults) => INodeProperties): INodeProperties[] {
	return perVersion(NODE_VERSIONS, ({ parallelItems }) => (parallelItems ? [build(parallelItems)] : []));
}

export const parallelRequestsOptions = inParallelVersions(({ requests }) => ({
	displayName: 'Parallel Requests',
	name: 'parallelRequests',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_PARALLEL_REQUESTS },
	default: requests,
	description: `How many requests to the service this node sends at once, over all its input items (1 to ${MAX_PARALLEL_REQUESTS}): small files go several at a time, large files send several parts at once. Read from the first item. A 429 or 503 from the service pauses them all.`,
}));

export const uploadMemoryOptions = inParallelVersions(({ uploadMemoryMiB }) => ({
	displayName: 'Upload Memory (MiB)',
	name: 'uploadMemory',
	type: 'number',
	typeOptions: { minValue: MIN_UPLOAD_MEMORY_MIB },
	default: uploadMemoryMiB,
	description:
		'The most memory the file bodies of all uploads of this node run hold at once, in MiB: each part of a large file, and each small file sent in one request, waits until it fits. A single file or part larger than this is sent alone. Read from the first item.',
}));

/** The run's pool, from the first item's options (one pool serves every item). */
function poolFor(ctx: IExecuteFunctions, defaults: ParallelDefaults): RunPool {
	const number = (name: string, fallback: number) => {
		const value = Number(ctx.getNodeParameter(`options.${name}`, 0, fallback));
		return Number.isFinite(value) ? value : fallback;
	};
	const parallel = Math.min(
		Math.max(Math.floor(number('parallelRequests', defaults.requests)), 1),
		MAX_PARALLEL_REQUESTS,
	);
	const memory = Math.max(number('uploadMemory', defaults.uploadMemoryMiB), MIN_UPLOAD_MEMORY_MIB) * MIB;
	const signal = ctx.getExecutionCancelSignal?.();
	return new RunPool(parallel, memory, () => signal?.aborted === true);
}

/**
 * An item's failure as its output item (Continue On Fail): `{ error, description }`. n8n's error
 * output (On Error: Continue (using error output)) takes an item only by its `error`, or by a JSON of
 * nothing but error and message, so there the error itself goes with it (n8n then keeps `{ error }`
 * as its JSON, the description in the error); the regular output keeps the JSON as it always was.
 */
export function failureItem(ctx: IExecuteFunctions, error: unknown, itemIndex: number): INodeExecutionData {
	const failure = error as NodeApiError | NodeOperationError;
	const json = { error: failure.message, ...(failure.description ? { description: failure.description } : {}) };
	if (ctx.getNode().onError !== 'continueErrorOutput') return { json, pairedItem: { item: itemIndex } };
	const nodeError =
		error instanceof NodeApiError || error instanceof NodeOperationError
			? error
			: new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
	return { json, error: nodeError, pairedItem: { item: itemIndex } };
}

/** The error the node fails with, as n8n shows it for the item. */
export function nodeFailure(ctx: IExecuteFunctions, error: unknown, itemIndex: number): Error {
	if (error instanceof NodeApiError) return new NodeApiError(ctx.getNode(), error as unknown as JsonObject);
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}

/**
 * Runs every item, several at once, over one pool: the pool decides how many requests go out,
 * so twice as many items are under way as it has slots (one preparing while another waits for
 * its answer). Output in input order. With Continue On Fail an item's failure is its own output
 * item and the others go on; without, no further item starts, the ones under way settle (an
 * upload in parts finishes or cancels), and the node fails with the first failed item's error.
 * A stopped execution starts no further item.
 */
export async function runInParallel(
	ctx: IExecuteFunctions,
	runItem: (ctx: IExecuteFunctions, itemIndex: number, pool: RunPool) => Promise<INodeExecutionData[]>,
	defaults: ParallelDefaults,
): Promise<INodeExecutionData[]> {
	const count = ctx.getInputData().length;
	const pool = poolFor(ctx, defaults);
	const signal = ctx.getExecutionCancelSignal?.();
	const results: INodeExecutionData[][] = new Array<INodeExecutionData[]>(count);
	const first = {} as { failure?: { itemIndex: number; error: unknown } };
	let next = 0;
	const worker = async () => {
		while (next < count && !first.failure && signal?.aborted !== true) {
			const itemIndex = next++;
			try {
				results[itemIndex] = await runItem(ctx, itemIndex, pool);
			} catch (error) {
				if (ctx.continueOnFail()) results[itemIndex] = [failureItem(ctx, error, itemIndex)];
				else {
					// Items settle out of order: the node fails with the first item's failure, as one by one.
					const known = first.failure as { itemIndex: number } | undefined;
					if (!known || itemIndex < known.itemIndex) first.failure = { itemIndex, error };
				}
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(count, pool.parallel * 2) }, worker));
	const { failure } = first;
	if (failure) throw nodeFailure(ctx, failure.error, failure.itemIndex);
	const output: INodeExecutionData[] = [];
	// One by one: spreading a list of 100,000+ entries as arguments overflows the stack.
	for (const items of results) for (const item of items ?? []) output.push(item);
	return output;
}
