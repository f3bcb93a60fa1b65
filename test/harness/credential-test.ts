/**
 * A credential's Test button, run the way n8n's credential tester does: the credential's `test`
 * request becomes the routing of a stand-in declarative node that n8n-core's RoutingNode runs
 * (expressions such as `={{$credentials.baseUrl}}`, the credential's `authenticate`, n8n's HTTP
 * client), then each `responseSuccessBody` rule fails the test when the answer's field equals
 * the rule's value. `test/e2e/credential.test.ts` checks the same cases against `n8n start`.
 */
import type { ICredentialDataDecryptedObject, IDataObject, INodeType } from 'n8n-workflow';
import { UnexpectedError } from 'n8n-workflow';
import { resolve } from 'node:path';

import { loadPackage } from './package-loader';
import { runNode } from './run-node';

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

const REPO_ROOT = resolve(__dirname, '..', '..');

/** Reads a dotted path like n8n's `get` for rule keys. */
function fieldAt(data: unknown, key: string): unknown {
	return key.split('.').reduce<unknown>((value, name) => (value as IDataObject | undefined)?.[name], data);
}

export async function testCredential(
	credentialType: string,
	data: ICredentialDataDecryptedObject,
	packageDir = REPO_ROOT,
): Promise<CredentialTestResult> {
	const pkg = await loadPackage(packageDir);
	const { test } = pkg.credentialTypes.getByName(credentialType);
	if (!test) throw new UnexpectedError(`Credential "${credentialType}" has no declarative test request`);
	const standIn: INodeType = {
		description: {
			displayName: 'Credential test',
			name: 'credentialTest',
			group: ['transform'],
			version: 1,
			description: 'Stands in for the node n8n builds to test a credential',
			defaults: { name: 'Credential test' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: credentialType, required: true }],
			properties: [
				{ displayName: 'Temp', name: 'temp', type: 'string', default: '', routing: { request: test.request } },
			],
		},
	};
	const run = await runNode({
		packageDir,
		nodeType: 'credentialTest',
		standInNodeType: standIn,
		parameters: {},
		credentials: { [credentialType]: data },
	});
	// n8n's tester reports a request that got no answer by its network code alone (`error.cause.code`,
	// e.g. ECONNREFUSED), which NodeApiError also keeps as httpCode; any other throw by its message.
	if (run.error) {
		const code = run.error.httpCode;
		const networkCode = typeof code === 'string' && code !== '' && !/^\d+$/.test(code);
		return { status: 'Error', message: networkCode ? code : run.error.message };
	}
	const answer = run.items[0]?.json;
	for (const rule of test.rules ?? []) {
		if (rule.type === 'responseSuccessBody' && fieldAt(answer, rule.properties.key) === rule.properties.value) {
			return { status: 'Error', message: rule.properties.message };
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}
