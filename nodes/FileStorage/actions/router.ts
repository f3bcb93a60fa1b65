import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import * as listContents from './bucket/listContents.operation';
import * as copy from './file/copy.operation';
import * as deleteFile from './file/delete.operation';
import * as download from './file/download.operation';
import * as getInfo from './file/getInfo.operation';
import * as getSignedUrl from './file/getSignedUrl.operation';
import * as move from './file/move.operation';
import * as multipartUpload from './file/multipartUpload.operation';
import * as purge from './file/purge.operation';
import * as signedOperationUrl from './file/signedOperationUrl.operation';
import * as transform from './file/transform.operation';
import * as upload from './file/upload.operation';
import * as copyFolder from './folders/copy.operation';
import * as deleteFolder from './folders/delete.operation';
import * as moveFolder from './folders/move.operation';
import * as cancel from './multipartUpload/cancel.operation';
import * as complete from './multipartUpload/complete.operation';
import * as start from './multipartUpload/start.operation';
import * as uploadPart from './multipartUpload/uploadPart.operation';
import { KeyTurns } from '../files/keyTurns';
import { Item, type RunShared } from '../item';
import type { RunPool } from '../transport/pool';
import { versionOf } from '../versions';
import { failureItem, nodeFailure, runInParallel } from './parallelItems';

type OperationHandler = (item: Item) => Promise<INodeExecutionData[]>;

const handlers: Record<string, Record<string, OperationHandler>> = {
	bucket: { listContents: listContents.execute },
	file: {
		upload: upload.execute,
		multipartUpload: multipartUpload.execute,
		download: download.execute,
		getSignedUrl: getSignedUrl.execute,
		delete: deleteFile.execute,
		purge: purge.execute,
		signedOperationUrl: signedOperationUrl.execute,
		transform: transform.execute,
		getInfo: getInfo.execute,
		copy: copy.execute,
		move: move.execute,
	},
	folder: { copy: copyFolder.execute, delete: deleteFolder.execute, move: moveFolder.execute },
	multipartUpload: {
		start: start.execute,
		uploadPart: uploadPart.execute,
		complete: complete.execute,
		cancel: cancel.execute,
	},
};

export const operationDescriptions = [
	...listContents.description,
	...upload.description,
	...multipartUpload.description,
	...download.description,
	...getSignedUrl.description,
	...signedOperationUrl.description,
	...transform.description,
	...deleteFile.description,
	...purge.description,
	...getInfo.description,
	...copy.description,
	...move.description,
	...copyFolder.description,
	...deleteFolder.description,
	...moveFolder.description,
	...start.description,
	...uploadPart.description,
	...complete.description,
	...cancel.description,
];

/** One item through its operation's handler: the one place an item's Item is built. */
async function runItem(ctx: IExecuteFunctions, itemIndex: number, run: RunShared): Promise<INodeExecutionData[]> {
	const resource = ctx.getNodeParameter('resource', itemIndex) as string;
	const operation = ctx.getNodeParameter('operation', itemIndex) as string;
	const handler = handlers[resource]?.[operation];
	if (!handler) {
		throw new NodeOperationError(ctx.getNode(), `The operation "${operation}" of "${resource}" is not supported`, {
			itemIndex,
		});
	}
	const item = new Item(ctx, itemIndex, run);
	try {
		return await handler(item);
	} finally {
		// An item keeps its turns on the keys it writes until it has finished, failed or not.
		item.finish();
	}
}

export async function route(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	// Version 3: the items in parallel over one request pool (parallelItems.ts).
	const { parallelItems } = versionOf(this);
	const turns = new KeyTurns();
	if (parallelItems) {
		const inPool = async (ctx: IExecuteFunctions, itemIndex: number, pool: RunPool) =>
			await runItem(ctx, itemIndex, { pool, turns });
		return [await runInParallel(this, inPool, parallelItems)];
	}
	const items = this.getInputData();
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			// One by one: spreading a list of 100,000+ entries as arguments overflows the stack.
			for (const item of await runItem(this, itemIndex, { turns })) output.push(item);
		} catch (error) {
			if (this.continueOnFail()) {
				output.push(failureItem(this, error, itemIndex));
				continue;
			}
			throw nodeFailure(this, error, itemIndex);
		}
	}
	return [output];
}
