import type { IBinaryData, IDataObject, IExecuteFunctions, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

/**
 * n8n 2.x's combined binary mode (workflow setting `binaryMode: 'combined'`): after each node
 * n8n-core moves every stored binary of its output to `item.json._files[<field>]` and leaves
 * `item.binary` empty. The names are n8n-workflow's BINARY_IN_JSON_PROPERTY and
 * BINARY_MODE_COMBINED, written out because n8n 1.x's n8n-workflow has neither.
 */
export const FILES_IN_JSON = '_files';
const COMBINED = 'combined';

export function isCombinedBinaryMode(ctx: IExecuteFunctions | IPollFunctions): boolean {
	// n8n 1.x contexts may lack the method; they only know separate mode.
	if (typeof ctx.getWorkflowSettings !== 'function') return false;
	return (ctx.getWorkflowSettings() as { binaryMode?: string }).binaryMode === COMBINED;
}

/** n8n-workflow's isBinaryValue, which n8n 1.x does not export. */
export function isBinaryObject(value: unknown): value is IBinaryData {
	return typeof value === 'object' && value !== null && 'mimeType' in value && ('data' in value || 'id' in value);
}

/** The binaries an item holds in its JSON, by field name (combined mode). */
export function filesInJson(item: INodeExecutionData | undefined): Record<string, IBinaryData> {
	const files = item?.json?.[FILES_IN_JSON];
	if (typeof files !== 'object' || files === null || Array.isArray(files)) return {};
	return Object.fromEntries(
		Object.entries(files as IDataObject).filter((entry): entry is [string, IBinaryData] => isBinaryObject(entry[1])),
	);
}
