/**
 * Loads a community package the way n8n does (PackageDirectoryLoader over the package.json "n8n"
 * section) and exposes its nodes and credentials under the names n8n gives them.
 */
import './env';

import { PackageDirectoryLoader } from 'n8n-core';
import type {
	ICredentialType,
	ICredentialTypes,
	IDataObject,
	INodeType,
	INodeTypes,
	IVersionedNodeType,
} from 'n8n-workflow';
import { NodeHelpers, UnexpectedError } from 'n8n-workflow';
import { resolve } from 'node:path';

export interface LoadedPackage {
	dir: string;
	packageName: string;
	loader: PackageDirectoryLoader;
	nodeTypes: PackageNodeTypes;
	credentialTypes: PackageCredentialTypes;
}

/** Node types are known to n8n as `<package name>.<description.name>`. */
export class PackageNodeTypes implements INodeTypes {
	constructor(private readonly loader: PackageDirectoryLoader) {}

	fullName(shortName: string): string {
		return `${this.loader.packageName}.${shortName}`;
	}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		return this.loader.getNode(this.shortName(nodeType)).type;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
	}

	getKnownTypes(): IDataObject {
		const known: IDataObject = {};
		for (const [name, details] of Object.entries(this.loader.known.nodes)) {
			known[this.fullName(name)] = { ...details };
		}
		return known;
	}

	shortNames(): string[] {
		return Object.keys(this.loader.known.nodes);
	}

	private shortName(nodeType: string): string {
		const prefix = `${this.loader.packageName}.`;
		if (!nodeType.startsWith(prefix)) {
			throw new UnexpectedError(`Node type "${nodeType}" is not in package ${this.loader.packageName}`);
		}
		return nodeType.slice(prefix.length);
	}
}

/** Credential types keep their plain names in n8n (no package prefix). */
export class PackageCredentialTypes implements ICredentialTypes {
	constructor(private readonly loader: PackageDirectoryLoader) {}

	recognizes(credentialType: string): boolean {
		return credentialType in this.loader.known.credentials;
	}

	getByName(credentialType: string): ICredentialType {
		return this.loader.getCredential(credentialType).type;
	}

	getSupportedNodes(credentialType: string): string[] {
		const supported = this.loader.known.credentials[credentialType]?.supportedNodes ?? [];
		return supported.map((name) => `${this.loader.packageName}.${name}`);
	}

	getParentTypes(credentialType: string): string[] {
		const direct = this.loader.known.credentials[credentialType]?.extends ?? [];
		return direct.flatMap((parent) => [parent, ...this.getParentTypes(parent)]);
	}
}

// One load per package directory and jest module registry (i.e. per test file): runNode is
// called hundreds of times, loading is not free, and the loaded classes must be the ones the
// node module's `require('n8n-workflow')` shares with this harness.
const cache = new Map<string, Promise<LoadedPackage>>();

export async function loadPackage(packageDir: string): Promise<LoadedPackage> {
	const dir = resolve(packageDir);
	let loading = cache.get(dir);
	if (!loading) {
		loading = (async () => {
			const loader = new PackageDirectoryLoader(dir);
			await loader.loadAll();
			return {
				dir,
				packageName: loader.packageName,
				loader,
				nodeTypes: new PackageNodeTypes(loader),
				credentialTypes: new PackageCredentialTypes(loader),
			};
		})();
		// A failed load (e.g. dist/ not built yet) must not stick: the next call retries.
		loading.catch(() => cache.delete(dir));
		cache.set(dir, loading);
	}
	return await loading;
}
