import type {
	IBinaryData,
	ICredentialDataDecryptedObject,
	IDataObject,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IRunData,
} from 'n8n-workflow';

export interface HarnessBinaryInput {
	/** An entry already in n8n's store (from `storeBinary`), put on the item as it is. */
	stored?: IBinaryData;
	/** Bytes held in memory. */
	data?: Buffer;
	/** Or a file on disk, streamed into n8n's binary store (never loaded whole). */
	filePath?: string;
	/**
	 * Put the bytes on the item as inline base64 `data` without an `id`, the way a Code node
	 * builds binary, instead of storing them in the filesystem store.
	 */
	base64Inline?: boolean;
	fileName?: string;
	mimeType?: string;
}

export interface HarnessItem {
	json?: IDataObject;
	binary?: Record<string, HarnessBinaryInput>;
}

export interface RunNodeOptions {
	/** Package root with a package.json "n8n" section; default: this repository. */
	packageDir?: string;
	/** Node name within the package (without the package prefix); default 'fileStorage'. */
	nodeType?: string;
	/** Default: the node's default version. */
	typeVersion?: number;
	parameters: INodeParameters;
	/** Decrypted test credentials by credential type name, e.g. `{ fileStorageApi: {...} }`. */
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** Input items; default `[{ json: {} }]`. */
	items?: HarnessItem[];
	/** Sets `node.onError = 'continueRegularOutput'` (what "On Error: Continue" saves in n8n 2.x). */
	continueOnFail?: boolean;
	/** `node.onError` itself, e.g. 'continueErrorOutput' (On Error: Continue (using error output)); wins over continueOnFail. */
	onError?: 'continueRegularOutput' | 'continueErrorOutput';
	/** Cancel the execution and reject when it takes longer than this. */
	timeoutMs?: number;
	/** Cancel the execution (as the editor's Stop button does) and reject when this settles. */
	stop?: Promise<unknown>;
	/**
	 * The workflow setting `binaryMode` (n8n 2.x). `'combined'`: the input items arrive as an
	 * upstream node's output does in that mode (n8n-core's own conversion moves every binary to
	 * `json._files`), and the node's output is converted the same way after it ran. Default: not
	 * set, which n8n treats as `'separate'`.
	 */
	binaryMode?: 'separate' | 'combined';
	/**
	 * Runs this node type instead of one of the package's (with the package's credentials), under
	 * the name `nodeType`: how `testCredential` runs a credential's Test request as n8n does.
	 */
	standInNodeType?: INodeType;
}

export type HarnessNodeError = Error & {
	description?: string;
	httpCode?: string;
	context?: IDataObject;
};

export interface RunNodeResult {
	/** First output of the node (empty if it failed). */
	items: INodeExecutionData[];
	/** All outputs. */
	outputs: INodeExecutionData[][];
	/**
	 * The error n8n recorded for the node. Set when the run failed, and also when continueOnFail
	 * let n8n pass the input items through after the node threw; not set when the node itself
	 * turned the error into an item via `this.continueOnFail()`. A plain Error carrying the
	 * fields of n8n's error (name, description, httpCode, context, ...), not its class.
	 */
	error?: HarnessNodeError;
	runData: IRunData;
	/** Output binary bytes, from the store or inline base64; `item.binary[field]`, else `item.json._files[field]`. Default field 'data'. */
	readBinary(item: INodeExecutionData, field?: string): Promise<Buffer>;
	/** Hex sha256 of an output binary, streamed from the store. Default field 'data'. */
	binarySha256(item: INodeExecutionData, field?: string): Promise<string>;
}
