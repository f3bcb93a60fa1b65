import type { IBinaryKeyData, IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { keyProblem } from './files/keys';
import { KeyTurns, type KeyRef, type UnsettledWrite } from './files/keyTurns';
import type { BucketRef } from './transport/api';
import type { RunPool } from './transport/pool';
import { DEFAULT_SETTINGS, FileStorageClient, type TransportSettings } from './transport/request';
import { versionOf, type NodeVersion } from './versions';

/** The Timeout and Max Retries options as the transport takes them. */
export function transportSettings(options: IDataObject): TransportSettings {
	const timeoutSeconds = Number(options.timeout ?? DEFAULT_SETTINGS.timeoutMs / 1000);
	const maxRetries = Number(options.maxRetries ?? DEFAULT_SETTINGS.maxRetries);
	return {
		timeoutMs: Math.max(1, timeoutSeconds) * 1000,
		maxRetries: Math.min(Math.max(0, Math.floor(maxRetries)), 10),
	};
}

/** What the items of one node run share. */
export interface RunShared {
	/** The run's request pool (version 3): every request of every item takes a slot of it. */
	pool?: RunPool;
	/** The keys the run's items write or delete take turns on (files/keyTurns.ts). */
	turns: KeyTurns;
}

/**
 * One input item of a node run, built once by the router and handed to every layer: the
 * execution context, the item's index (for its parameters and errors), its node version's row,
 * the run's request pool (version 3) and, once asked for, its client. Nothing below the router
 * takes an item index of its own.
 */
export class Item {
	readonly version: NodeVersion;
	private readOptions: IDataObject | undefined;
	private madeClient: Promise<FileStorageClient> | undefined;
	private heldTurns: (() => void) | undefined;

	constructor(
		readonly ctx: IExecuteFunctions,
		readonly index: number,
		readonly run: RunShared = { turns: new KeyTurns() },
	) {
		this.version = versionOf(ctx);
	}

	/** The run's request pool (version 3), when it has one. */
	get pool(): RunPool | undefined {
		return this.run.pool;
	}

	get node(): INode {
		return this.ctx.getNode();
	}

	/** A parameter of this item. */
	param(name: string, fallback?: unknown, extractValue = false): unknown {
		if (extractValue) return this.ctx.getNodeParameter(name, this.index, fallback, { extractValue: true });
		return this.ctx.getNodeParameter(name, this.index, fallback);
	}

	/** The item's Options collection, read once. */
	options(): IDataObject {
		this.readOptions ??= this.ctx.getNodeParameter('options', this.index, {}) as IDataObject;
		return this.readOptions;
	}

	/** The input item itself. */
	input(): INodeExecutionData {
		return this.ctx.getInputData()[this.index];
	}

	/** The error for this item: `message` names the field, `description` the fix. */
	fail(message: string, description?: string): NodeOperationError {
		return new NodeOperationError(this.node, message, {
			itemIndex: this.index,
			...(description === undefined ? {} : { description }),
		});
	}

	/** The item's output: one item paired with this one. */
	output(json: IDataObject, binary?: IBinaryKeyData): INodeExecutionData[] {
		return [{ json, ...(binary ? { binary } : {}), pairedItem: { item: this.index } }];
	}

	/**
	 * Waits for this item's turn on every key it will write or delete (all of them in one call),
	 * and holds them until the item finishes (the router calls finish()) or asks again: an item
	 * working through several files (a folder) gives back one file's turns before the next's, so it
	 * never holds keys while it waits for others.
	 */
	async takeTurns(refs: KeyRef[]): Promise<void> {
		this.finish();
		this.heldTurns = await this.run.turns.take(refs);
		this.refuseUnsettled(refs);
	}

	/**
	 * Fails when an earlier item of the run wrote one of `refs` without learning the outcome: its
	 * write may still land and replace whatever this item stores there, or what it checks or deletes.
	 */
	refuseUnsettled(refs: KeyRef[]): void {
		this.refuseWrite(this.run.turns.unsettledOf(refs, this.index));
	}

	/** As refuseUnsettled, for every key inside a folder (`folder.key` its prefix) this item deletes. */
	refuseUnsettledUnder(folder: KeyRef, recursive: boolean): void {
		this.refuseWrite(this.run.turns.unsettledUnder(folder, recursive, this.index));
	}

	private refuseWrite(found: UnsettledWrite | undefined): void {
		if (!found) return;
		const { ref, writer } = found;
		throw this.fail(
			`A write of item ${writer} of this run to '${ref.key}' in bucket '${ref.bucket}' (region ${ref.region}) may still land`,
			`Item ${writer} wrote to this key without learning the outcome (no answer in time, a gateway's 504 or another 5xx, a cut connection), and the service may still carry that write out: it would replace or remove what this item writes there. This item changed nothing. Once that write has settled, check the key (File → Get Info) and run the node again for this item.`,
		);
	}

	/** Marks `ref` as written by this item with an unknown outcome: later items of the run leave it alone. */
	writeMayStillLand(ref: KeyRef): void {
		this.run.turns.markUnsettled(ref, this.index);
	}

	/** Gives back the item's turns: called by the router once the item's operation has settled. */
	finish(): void {
		this.heldTurns?.();
		this.heldTurns = undefined;
	}

	/** The item's client, made once from its credential and its Timeout and Max Retries options. */
	async client(): Promise<FileStorageClient> {
		// A write of this item that may still land marks its key for the rest of the run (see ApiCall.writes).
		this.madeClient ??= FileStorageClient.create(this.ctx, this.index, transportSettings(this.options()), {
			pool: this.pool,
			onWriteMayLand: (file) => this.writeMayStillLand(file),
		});
		return await this.madeClient;
	}

	/** A required text parameter, trimmed; empty fails naming the field. */
	requiredText(name: string, label: string, hint: string): string {
		const value = String(this.ctx.getNodeParameter(name, this.index, '') ?? '').trim();
		if (!value) throw this.fail(`The parameter '${label}' is empty`, hint);
		return value;
	}

	/** The bucket the item names. */
	bucket(): BucketRef {
		return {
			bucket: this.requiredText('bucketName', 'Bucket Name', 'Enter the name of the bucket, e.g. my-bucket.'),
			region: this.requiredText('region', 'Region', 'Enter the region of the bucket, e.g. us-east-1.'),
		};
	}

	/** `key` when the service takes it; else the error naming `field`. */
	validKey(key: string, field = 'Key'): string {
		const problem = keyProblem(key);
		if (!problem) return key;
		const shown = key.length > 80 ? `${key.slice(0, 60)}…${key.slice(-10)}` : key;
		throw this.fail(
			`The key "${shown}" is not valid: ${problem} (parameter '${field}')`,
			'Keys are 1–1024 bytes of UTF-8 without a leading "/", a ".." segment or a NUL character.',
		);
	}
}
