/**
 * Runs one poll of a polling trigger of a package through n8n-core's real PollContext, the
 * context n8n's ActiveWorkflows hands to `poll()`: real parameters, credentials, HTTP and binary
 * store. Workflow static data goes in and comes back as n8n would save it (a JSON copy), so a
 * test chains polls by passing each result's `staticData` to the next.
 */
import './env';

import { ExecutionLifecycleHooks, PollContext } from 'n8n-core';
import type { IDataObject, INodeExecutionData, IWorkflowBase, WorkflowExecuteMode } from 'n8n-workflow';
import { UnexpectedError } from 'n8n-workflow';

import { getBinaryDataService, readBinary } from './binary';
import { additionalDataFor, executeNode, prepareWorkflow } from './run-node';
import type { RunNodeOptions } from './types';

export interface RunPollOptions extends Pick<
	RunNodeOptions,
	'packageDir' | 'typeVersion' | 'parameters' | 'credentials' | 'binaryMode'
> {
	/** Node name within the package; default 'fileStorageTrigger'. */
	nodeType?: string;
	/** The workflow's static data as saved after the previous poll; default none (first activation). */
	staticData?: IDataObject;
	/** 'trigger' (an active workflow's poll, default) or 'manual' (the editor's Fetch Test Event). */
	mode?: Extract<WorkflowExecuteMode, 'trigger' | 'manual'>;
	/** What `getPollBudgetMs()` answers; `null` removes the method, as in n8n 1.x. Default n8n's (5 min). */
	pollBudgetMs?: number | null;
}

export interface RunPollResult {
	/**
	 * The items of the poll's first output; empty when it returned null. With `binaryMode` set,
	 * as the workflow's execution hands them on (see runPoll).
	 */
	items: INodeExecutionData[];
	/** Whether the poll returned null (nothing to emit). */
	returnedNull: boolean;
	/** The error the poll threw (the poll then emits nothing). */
	error?: Error & { description?: string };
	/** The workflow's static data after the poll, as n8n would save it. */
	staticData: IDataObject;
	readBinary(item: INodeExecutionData, field?: string): Promise<Buffer>;
}

let pollCounter = 0;

export async function runPoll(options: RunPollOptions): Promise<RunPollResult> {
	await getBinaryDataService();
	const { workflow, node, nodeType, credentialsHelper } = await prepareWorkflow({
		...options,
		nodeType: options.nodeType ?? 'fileStorageTrigger',
	});
	if (typeof nodeType.poll !== 'function') {
		throw new UnexpectedError(`Node ${node.type} has no poll() method`);
	}
	// As n8n loads it from the database: a fresh copy, never the caller's object.
	workflow.overrideStaticData(structuredClone(options.staticData ?? {}));
	// overrideStaticData marks the data changed; n8n resets that once it is loaded.
	workflow.staticData.__dataChanged = false;
	const mode = options.mode ?? 'trigger';
	const executionId = `poll-${++pollCounter}`;
	const hooks = new ExecutionLifecycleHooks(mode, executionId, { id: workflow.id } as IWorkflowBase);
	const additionalData = additionalDataFor(executionId, hooks, credentialsHelper);
	const budget = options.pollBudgetMs;
	const context = new PollContext(
		workflow,
		workflow.getNode(node.name)!,
		additionalData,
		mode,
		mode === 'manual' ? 'manual' : 'activate',
		undefined,
		undefined,
		undefined,
		undefined,
		undefined,
		typeof budget === 'number' ? () => budget : undefined,
	);
	if (budget === null) {
		// n8n 1.x: no such method.
		Object.defineProperty(context, 'getPollBudgetMs', { value: undefined });
	}

	let output: INodeExecutionData[][] | null = null;
	let error: RunPollResult['error'];
	try {
		output = await nodeType.poll.call(context);
	} catch (thrown) {
		error = thrown as RunPollResult['error'];
	}
	if (output && options.binaryMode) {
		// What an emitted poll becomes in n8n: an execution that starts at the trigger with the
		// poll's output, which the engine passes on through its usual conversion (binaryMode).
		const run = await executeNode(workflow, node, output[0] ?? [], {
			mode: 'trigger',
			executionId: `${executionId}-run`,
			credentialsHelper,
		});
		const task = run.data.resultData.runData[node.name]?.[0];
		if (task?.error) throw new UnexpectedError(`The execution of the emitted poll failed: ${task.error.message}`);
		output = task?.data?.main?.map((items) => items ?? []) ?? null;
	}
	const saved = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
	delete saved.__dataChanged;
	return {
		items: output?.[0] ?? [],
		returnedNull: output === null && !error,
		error,
		staticData: saved,
		readBinary,
	};
}
