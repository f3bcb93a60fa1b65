/**
 * Stands in for n8n's database-backed CredentialsHelper: credentials come decrypted from the
 * test, everything else (defaults, authenticate, preAuthentication) follows what n8n does with
 * the credential class the package ships.
 */
import './env';

import { Credentials } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeParameters,
	INodeProperties,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
	Workflow,
} from 'n8n-workflow';
import { ICredentialsHelper, NodeHelpers, UnexpectedError } from 'n8n-workflow';

import type { PackageCredentialTypes } from './package-loader';

export class HarnessCredentialsHelper extends ICredentialsHelper {
	private readonly store: Map<string, ICredentialDataDecryptedObject>;

	constructor(
		private readonly credentialTypes: PackageCredentialTypes,
		credentials: Record<string, ICredentialDataDecryptedObject>,
	) {
		super();
		this.store = new Map(Object.entries(credentials).map(([type, data]) => [type, structuredClone(data)]));
	}

	getParentTypes(name: string): string[] {
		return this.credentialTypes.getParentTypes(name);
	}

	isCredentialUsableByNode(credentialType: string, nodeType: string): boolean {
		if (!this.credentialTypes.recognizes(credentialType)) return true;
		const type = this.credentialTypes.getByName(credentialType);
		if (!type.restrictToSupportedNodes) return true;
		return this.credentialTypes.getSupportedNodes(credentialType).includes(nodeType);
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		const credentialType = this.credentialTypes.getByName(type);
		if (!credentialType.extends) return credentialType.properties;
		// Parent properties first, the child's own win (as in n8n).
		const merged: INodeProperties[] = [];
		for (const parent of credentialType.extends) {
			if (this.credentialTypes.recognizes(parent)) {
				NodeHelpers.mergeNodeProperties(merged, this.getCredentialsProperties(parent));
			}
		}
		NodeHelpers.mergeNodeProperties(merged, credentialType.properties);
		return merged;
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.store.get(type);
		if (!data) {
			throw new UnexpectedError(`runNode was not given credentials of type "${type}"`);
		}
		// n8n fills in property defaults (e.g. a default base URL the user never touched).
		const withDefaults = NodeHelpers.getNodeParameters(
			this.getCredentialsProperties(type),
			data as INodeParameters,
			true,
			false,
			null,
			null,
		);
		return { ...(withDefaults as ICredentialDataDecryptedObject) };
	}

	async getCredentials(nodeCredentials: INodeCredentialsDetails, type: string) {
		const credentials = new Credentials(nodeCredentials, type);
		await credentials.setData(this.store.get(type) ?? {});
		return credentials;
	}

	async updateCredentials(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.store.set(type, structuredClone(data));
	}

	async updateCredentialsOauthTokenData(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.store.set(type, { ...this.store.get(type), ...structuredClone(data) });
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const credentialType = this.credentialTypes.getByName(typeName);
		const { authenticate } = credentialType;
		if (typeof authenticate === 'function') {
			// Called on the credential object, as n8n does: a class method may use `this`.
			return await authenticate.call(credentialType, credentials, requestOptions as IHttpRequestOptions);
		}
		if (authenticate?.type === 'generic') {
			if (!workflow || !node) {
				throw new UnexpectedError('Generic credential authentication needs the workflow and node');
			}
			const resolve = (value: string) => {
				if (typeof value !== 'string' || !value.startsWith('=')) return value;
				const resolved = workflow.expression.getSimpleParameterValue(
					node,
					value,
					'internal',
					{ $credentials: credentials },
					undefined,
					'',
				);
				return resolved ? String(resolved) : '';
			};
			const target = requestOptions as unknown as Record<string, Record<string, unknown>>;
			for (const [section, entries] of Object.entries(authenticate.properties)) {
				target[section] ??= {};
				for (const [key, value] of Object.entries(entries as Record<string, string>)) {
					target[section][resolve(key)] = resolve(value);
				}
			}
		}
		return requestOptions as IHttpRequestOptions;
	}

	/** n8n calls the credential's preAuthentication only for an empty or expired expirable field. */
	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = this.credentialTypes.getByName(typeName);
		const expirable = credentialType.properties.find(
			(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
		);
		if (!expirable || typeof credentialType.preAuthentication !== 'function') return undefined;
		if (credentials[expirable.name] !== '' && !credentialsExpired) return undefined;

		const output = (await credentialType.preAuthentication.call(
			helpers,
			credentials,
		)) as ICredentialDataDecryptedObject;
		if (output?.[expirable.name] === undefined) return undefined;
		const nodeCredentials = node.credentials?.[typeName] ?? { id: null, name: typeName };
		await this.updateCredentials(nodeCredentials, typeName, { ...credentials, ...output });
		return Object.assign(credentials, output);
	}

	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const { preAuthentication } = this.credentialTypes.getByName(typeName);
		if (typeof preAuthentication !== 'function') return undefined;
		const output = await preAuthentication.call(helpers, credentials);
		return (output as ICredentialDataDecryptedObject) ?? undefined;
	}
}
