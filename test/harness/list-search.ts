/**
 * Calls a node's `methods.listSearch` function the way the editor does for a resource
 * locator's "From List" mode: inside n8n-core's real LoadOptionsContext, with the node's
 * current parameters and the credential's real authentication.
 */
import './env';

import { ExecutionLifecycleHooks, LoadOptionsContext } from 'n8n-core';
import type { INodeListSearchResult, IWorkflowBase } from 'n8n-workflow';
import { UnexpectedError } from 'n8n-workflow';

import { additionalDataFor, prepareWorkflow } from './run-node';
import type { RunNodeOptions } from './types';

export interface ListSearchOptions extends Omit<RunNodeOptions, 'items' | 'continueOnFail' | 'timeoutMs'> {
	method: string;
	filter?: string;
	paginationToken?: string;
}

export async function runListSearch(options: ListSearchOptions): Promise<INodeListSearchResult> {
	const { node, workflow, nodeType, credentialsHelper } = await prepareWorkflow(options);
	const search = nodeType.methods?.listSearch?.[options.method];
	if (!search) throw new UnexpectedError(`The node has no listSearch method "${options.method}"`);
	const hooks = new ExecutionLifecycleHooks('manual', 'list-search', {
		id: workflow.id,
		nodes: [node],
	} as IWorkflowBase);
	const additionalData = additionalDataFor('list-search', hooks, credentialsHelper);
	const context = new LoadOptionsContext(workflow, node, additionalData, 'parameters.fileKey');
	return await search.call(context, options.filter, options.paginationToken);
}
