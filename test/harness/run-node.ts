/**
 * Runs one node of a package through n8n-core's real engine: the node is the only node of a
 * workflow and sits on the execution stack with the prepared items, as if an upstream node had
 * just produced them. Credentials, HTTP and binary data take n8n's own code paths.
 */
import './env';

import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
// Not re-exported by n8n-core's index: the conversion WorkflowExecute applies after every node.
import { convertBinaryData } from 'n8n-core/dist/utils/convert-binary-data';
import type {
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IRun,
	IVersionedNodeType,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	IWorkflowSettings,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { createRunExecutionData, UnexpectedError, Workflow } from 'n8n-workflow';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';

import { binarySha256, getBinaryDataService, readBinary, toItemBinary } from './binary';
import { HarnessCredentialsHelper } from './credentials-helper';
import { loadPackage, type PackageNodeTypes } from './package-loader';
import type { HarnessItem, HarnessNodeError, RunNodeOptions, RunNodeResult } from './types';

const REPO_ROOT = resolve(__dirname, '..', '..');
const WORKFLOW_ID = 'harness-workflow';
let executionCounter = 0;

function defaultVersion(type: INodeType | IVersionedNodeType): number {
	if ('nodeVersions' in type) return type.currentVersion;
	const { version, defaultVersion: declared } = type.description;
	return declared ?? (Array.isArray(version) ? Math.max(...version) : version);
}

async function toInputItems(
	items: HarnessItem[],
	location: { workflowId: string; executionId: string },
	binaryMode: RunNodeOptions['binaryMode'],
): Promise<INodeExecutionData[]> {
	const prepared = await Promise.all(
		items.map(async (item) => {
			const prepared: INodeExecutionData = { json: item.json ?? {} };
			if (item.binary) {
				prepared.binary = {};
				for (const [field, input] of Object.entries(item.binary)) {
					prepared.binary[field] = await toItemBinary(input, location);
				}
			}
			return prepared;
		}),
	);
	// As the upstream node's output reaches this node: in combined mode n8n-core has already
	// moved its binaries into the JSON.
	const converted = await convertBinaryData(
		location.workflowId,
		location.executionId,
		{ data: [prepared] },
		binaryMode,
	);
	return converted.data?.[0] ?? prepared;
}

function unsupported(what: string) {
	return async () => {
		throw new UnexpectedError(`${what} is not available in the test harness`);
	};
}

export function additionalDataFor(
	executionId: string,
	hooks: ExecutionLifecycleHooks,
	credentialsHelper: HarnessCredentialsHelper,
): IWorkflowExecuteAdditionalData {
	// The URLs are never called; n8n only needs them to be valid when it builds $execution etc.
	const base = 'http://localhost:5678';
	const data: Partial<IWorkflowExecuteAdditionalData> = {
		hooks,
		credentialsHelper,
		executionId,
		workflowId: WORKFLOW_ID,
		currentNodeExecutionIndex: 0,
		restApiUrl: `${base}/rest`,
		instanceBaseUrl: `${base}/`,
		formBaseUrl: `${base}/form`,
		formWaitingBaseUrl: `${base}/form-waiting`,
		formTestBaseUrl: `${base}/form-test`,
		webhookBaseUrl: `${base}/webhook`,
		webhookWaitingBaseUrl: `${base}/webhook-waiting`,
		webhookTestBaseUrl: `${base}/webhook-test`,
		mcpBaseUrl: `${base}/mcp`,
		mcpTestBaseUrl: `${base}/mcp-test`,
		variables: {},
		executeWorkflow: unsupported('Executing sub-workflows'),
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		startRunnerTask: unsupported('The task runner (Code node)'),
		logAiEvent: () => {},
	};
	return data as IWorkflowExecuteAdditionalData;
}

/** The package's node types, with `standIn` answering for `shortName`. */
function withStandIn(types: PackageNodeTypes, shortName: string, standIn: INodeType): INodeTypes {
	const name = types.fullName(shortName);
	return {
		getByName: (type) => (type === name ? standIn : types.getByName(type)),
		getByNameAndVersion: (type, version) => (type === name ? standIn : types.getByNameAndVersion(type, version)),
		getKnownTypes: () => ({ ...types.getKnownTypes(), [name]: {} }),
	};
}

/** The node under test as the single node of a workflow, with the package's types. */
export async function prepareWorkflow(options: RunNodeOptions) {
	const pkg = await loadPackage(options.packageDir ?? REPO_ROOT);
	const shortName = options.nodeType ?? 'fileStorage';
	const nodeTypes = options.standInNodeType
		? withStandIn(pkg.nodeTypes, shortName, options.standInNodeType)
		: pkg.nodeTypes;
	if (!options.standInNodeType && !(shortName in pkg.loader.known.nodes)) {
		throw new UnexpectedError(
			`Package ${pkg.packageName} has no node "${shortName}" (has: ${pkg.nodeTypes.shortNames().join(', ')})`,
		);
	}
	const type = pkg.nodeTypes.fullName(shortName);
	const nodeType = nodeTypes.getByName(type);
	const typeVersion = options.typeVersion ?? defaultVersion(nodeType);
	const versioned = nodeTypes.getByNameAndVersion(type, typeVersion);
	const { description } = versioned;

	const credentials = options.credentials ?? {};
	const node: INode = {
		id: randomUUID(),
		name: (description.defaults.name as string | undefined) ?? description.displayName,
		type,
		typeVersion,
		position: [0, 0],
		// The Workflow constructor fills in defaults in place; keep the caller's object intact.
		parameters: structuredClone(options.parameters),
		credentials: Object.fromEntries(
			Object.keys(credentials).map((name) => [name, { id: `harness-${name}`, name: `${name} (test)` }]),
		),
	};
	if (options.continueOnFail) node.onError = 'continueRegularOutput';
	if (options.onError) node.onError = options.onError;

	const settings: IWorkflowSettings = { executionOrder: 'v1' };
	if (options.binaryMode) settings.binaryMode = options.binaryMode;
	const workflow = new Workflow({
		id: WORKFLOW_ID,
		name: 'Harness',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
		settings,
	});
	const credentialsHelper = new HarnessCredentialsHelper(pkg.credentialTypes, credentials);
	return { pkg, node, workflow, nodeType: versioned, credentialsHelper };
}

export async function runNode(options: RunNodeOptions): Promise<RunNodeResult> {
	// n8n initialises its binary store at start-up. Without that, n8n-core keeps every binary a
	// node produces in memory as base64, so a run whose inputs hold no binary (a download of keys)
	// would not be the filesystem-mode run the harness stands for.
	await getBinaryDataService();
	const { node, workflow, credentialsHelper } = await prepareWorkflow(options);

	const executionId = String(++executionCounter);
	const inputItems = await toInputItems(
		options.items ?? [{ json: {} }],
		{ workflowId: WORKFLOW_ID, executionId },
		options.binaryMode,
	);
	const run = await executeNode(workflow, node, inputItems, {
		mode: 'manual',
		executionId,
		credentialsHelper,
		timeoutMs: options.timeoutMs,
		stop: options.stop,
	});

	const taskData = run.data.resultData.runData[node.name]?.[0];
	const outputs = taskData?.data?.main?.map((output) => output ?? []) ?? [];
	const rawError = taskData?.error ?? run.data.resultData.error;
	return {
		items: outputs[0] ?? [],
		outputs,
		error: rawError && asError(rawError),
		runData: run.data.resultData.runData,
		readBinary,
		binarySha256,
	};
}

/**
 * One execution of the workflow's single node, which sits on the execution stack with `inputItems`
 * as if an upstream node had just produced them. In 'trigger' mode a polling node passes them on
 * as its own output, as when n8n runs an active workflow with what its poll emitted.
 */
export async function executeNode(
	workflow: Workflow,
	node: INode,
	inputItems: INodeExecutionData[],
	run: {
		mode: WorkflowExecuteMode;
		executionId: string;
		credentialsHelper: HarnessCredentialsHelper;
		timeoutMs?: number;
		stop?: Promise<unknown>;
	},
): Promise<IRun> {
	const workflowData = {
		id: WORKFLOW_ID,
		name: workflow.name,
		active: false,
		isArchived: false,
		nodes: [node],
		connections: {},
		settings: workflow.settings,
		createdAt: new Date(),
		updatedAt: new Date(),
	} as IWorkflowBase;
	const hooks = new ExecutionLifecycleHooks(run.mode, run.executionId, workflowData);
	let finished!: (run: IRun) => void;
	const afterHook = new Promise<IRun>((resolveRun) => (finished = resolveRun));
	hooks.addHandler('workflowExecuteAfter', (done) => finished(done));

	const additionalData = additionalDataFor(run.executionId, hooks, run.credentialsHelper);
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node: workflow.getNode(node.name)!, data: { main: [inputItems] }, source: null }],
		},
	});

	const execution = new WorkflowExecute(additionalData, run.mode, runExecutionData).processRunExecutionData(workflow);
	// The run counts as done once n8n fired workflowExecuteAfter (where n8n persists a run) and
	// the engine's promise settled, so nothing of it is left running when the test goes on.
	const done = Promise.all([afterHook, execution]).then(([result]) => result);
	const stopped = run.stop?.then(() => {
		execution.cancel();
		throw new Error('runNode: the execution was stopped');
	});
	// A stop that comes after the run ended changes nothing and is no unhandled rejection.
	stopped?.catch(() => undefined);
	return await withTimeout(stopped ? Promise.race([done, stopped]) : done, run.timeoutMs, () => execution.cancel());
}

/**
 * WorkflowExecute records a node's error as a plain-object copy (`{ ...error, message, stack }`),
 * which is what n8n stores and shows. Hand it back as an Error carrying those same fields
 * (name, description, httpCode, context, ...); `instanceof NodeApiError` cannot survive the copy.
 */
function asError(raw: object): HarnessNodeError {
	if (raw instanceof Error) return raw as HarnessNodeError;
	const { message, stack } = raw as { message?: string; stack?: string };
	return Object.assign(new Error(message), raw, { stack }) as HarnessNodeError;
}

async function withTimeout<T>(promise: Promise<T>, timeoutMs: number | undefined, onTimeout: () => void): Promise<T> {
	if (timeoutMs === undefined) return await promise;
	let timer: NodeJS.Timeout | undefined;
	const timedOut = new Promise<never>((_, reject) => {
		timer = setTimeout(() => {
			// Cancelling aborts the execution's signal, which n8n hands to in-flight HTTP requests.
			onTimeout();
			reject(new Error(`runNode: the execution did not finish within ${timeoutMs} ms`));
		}, timeoutMs);
	});
	try {
		return await Promise.race([promise, timedOut]);
	} finally {
		clearTimeout(timer);
	}
}
