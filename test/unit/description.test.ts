import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { FileStorageApi } from '../../credentials/FileStorageApi.credentials';
import { FileStorage } from '../../nodes/FileStorage/FileStorage.node';
import { FileStorageTrigger } from '../../nodes/FileStorage/FileStorageTrigger.node';
import { nodeVersion } from '../../nodes/FileStorage/versions';

const { properties } = new FileStorage().description;
const trigger = new FileStorageTrigger().description.properties;
const credential = new FileStorageApi().properties;

/** Every property with the fields of its collections, as the panel shows them. */
function withCollectionFields(list: INodeProperties[]): INodeProperties[] {
	return list.flatMap((property) =>
		property.type === 'collection' ? [property, ...(property.options as INodeProperties[])] : [property],
	);
}

const panels = { node: properties, trigger, credential };

describe('the panel reads like n8n’s own nodes', () => {
	it.each(Object.entries(panels))('every Options collection of the %s lists its options alphabetically', (_, list) => {
		const collections = list.filter((property) => property.type === 'collection');
		for (const collection of collections) {
			const names = (collection.options as INodeProperties[]).map((option) => option.displayName);
			expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
		}
	});

	it('the Multipart Threshold the panel shows for each node version is the one the node uses when it is not set', () => {
		const fields = withCollectionFields(properties).filter((p) => p.name === 'multipartThreshold');
		// Upload, File → Copy and Move, Folder → Copy and Move, one field per version group each.
		expect(fields).toHaveLength(10);
		for (const field of fields) {
			const versions = field.displayOptions?.show?.['@version'];
			const shownFrom3 = JSON.stringify(versions) === JSON.stringify([{ _cnd: { gte: 3 } }]);
			expect(shownFrom3 || JSON.stringify(versions) === '[1,2]').toBe(true);
			expect(field.default).toBe(nodeVersion(shownFrom3 ? 3 : 2).multipartThresholdMiB);
		}
		expect(nodeVersion(1).multipartThresholdMiB).toBe(32);
		expect(nodeVersion(2).multipartThresholdMiB).toBe(32);
	});

	it('the node has many Options collections (the check above is not empty)', () => {
		expect(properties.filter((property) => property.type === 'collection').length).toBeGreaterThan(5);
	});

	it.each(Object.entries(panels))(
		'every example placeholder of a text field of the %s starts with "e.g."',
		(_, list) => {
			const placeholders = withCollectionFields(list).flatMap((property) => [
				...(property.type === 'string' && property.placeholder ? [property.placeholder] : []),
				...(property.modes ?? []).filter((mode) => mode.type === 'string').map((mode) => mode.placeholder ?? ''),
			]);
			expect(placeholders.length).toBeGreaterThan(0);
			for (const placeholder of placeholders) expect(placeholder).toMatch(/^e\.g\. /);
		},
	);

	it('no operation description (also the AI tool’s description) says it takes only the input item’s binary file', () => {
		const operations = properties
			.filter((property) => property.name === 'operation')
			.flatMap((property) => property.options as INodePropertyOptions[]);
		for (const operation of operations)
			expect(String(operation.description)).not.toMatch(/binary (file )?of the input item/);
	});
});

describe('fields are shown only where they do something', () => {
	const optionOf = (list: INodeProperties[], collection: INodeProperties | undefined, name: string) =>
		(collection?.options as INodeProperties[] | undefined)?.find((option) => option.name === name);

	it('the trigger’s Put Output File in Field is shown only with Download File on', () => {
		const options = trigger.find((property) => property.name === 'options');
		expect(optionOf(trigger, options, 'binaryPropertyName')?.displayOptions).toEqual({
			show: { downloadFile: [true] },
		});
	});

	it('the trigger’s Parallel Requests is shown only with Download File on: 1 for saved version 1 triggers, 32 (at most 64) from version 2', () => {
		const options = trigger.find((property) => property.name === 'options');
		const fields = (options?.options as INodeProperties[]).filter((option) => option.name === 'parallelRequests');
		expect(fields.map((field) => [field.default, field.typeOptions?.maxValue, field.displayOptions])).toEqual([
			[1, 64, { show: { downloadFile: [true], '@version': [1] } }],
			[32, 64, { show: { downloadFile: [true], '@version': [{ _cnd: { gte: 2 } }] } }],
		]);
		expect(new FileStorageTrigger().description).toMatchObject({ version: [1, 2], defaultVersion: 2 });
	});

	it('Download’s File Name option is shown only with Destination Binary Field', () => {
		const options = properties.find(
			(property) => property.name === 'options' && property.displayOptions?.show?.operation?.includes('download'),
		);
		expect(optionOf(properties, options, 'fileName')?.displayOptions).toEqual({
			show: { '/destination': ['binary'] },
		});
	});
});

describe('the editor, as a review found it', () => {
	/** Shown for the resource, listed plainly or by an equality condition (the step-by-step operations'). */
	const forResource = (value: unknown, resource: string) =>
		value === resource || JSON.stringify(value) === JSON.stringify({ _cnd: { eq: resource } });
	const operationsOf = (resource: string) =>
		properties.find((p) => p.name === 'operation' && forResource(p.displayOptions?.show?.resource?.[0], resource))!
			.options as INodePropertyOptions[];

	it('the node picker lists the actions of each resource in the order their names read', () => {
		for (const resource of ['bucket', 'file', 'folder']) {
			const actions = operationsOf(resource).map((option) => option.action!.toLowerCase());
			expect(actions).toEqual([...actions].sort((a, b) => a.localeCompare(b)));
		}
	});

	it('the step-by-step multipart actions come in the order they are used', () => {
		expect(operationsOf('multipartUpload').map((option) => option.value)).toEqual([
			'start',
			'uploadPart',
			'complete',
			'cancel',
		]);
	});

	it('Include Subfolders is a parameter next to Folder in List Contents, Folder → Delete and the trigger', () => {
		const next = (list: INodeProperties[], show?: Readonly<Record<string, readonly string[]>>) => {
			const shown = list.filter(
				(p) =>
					!show || Object.entries(show).every(([name, values]) => p.displayOptions?.show?.[name]?.[0] === values[0]),
			);
			const folder = shown.findIndex((p) => p.name === 'folder' && p.type === 'resourceLocator');
			return shown[folder + 1];
		};
		for (const [list, show] of [
			[properties, { resource: ['bucket'], operation: ['listContents'] }],
			[properties, { resource: ['folder'], operation: ['delete'] }],
			[trigger, undefined],
		] as const) {
			expect(next(list, show)).toMatchObject({ displayName: 'Include Subfolders', name: 'includeSubfolders' });
		}
	});
});
