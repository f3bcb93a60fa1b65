import type { IDataObject, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { Item } from '../../item';
import { multipartUpload } from '../../upload/multipartUpload';
import { MAX_PARALLEL_UPLOADS, MAX_PART_SIZE_MIB, MIN_PART_SIZE_MIB, type MultipartSettings } from '../../upload/parts';
import { NODE_VERSIONS, perVersion, type NodeVersion } from '../../versions';
import { optionsCollection } from '../common';
import { uploadMemoryOptions } from '../parallelItems';
import { refuseExistingOption } from './existingFile';
import { contentTypeOption, prepareUpload, uploadFields } from './uploadFields';

const show = { resource: ['file'], operation: ['multipartUpload'] };

/**
 * Part Size with its version's default, and Parallel Uploads where the version has it (up to
 * version 2); where the run's pool bounds the parts in flight (version 3) Part Size says so.
 * Without `shownWith`, as options of Upload, Copy and Move.
 */
export function partSettingFields(shownWith?: Record<string, string[]>): INodeProperties[] {
	const where = shownWith ? { displayOptions: { show: shownWith } } : {};
	return perVersion(NODE_VERSIONS, ({ partSizeMiB, parallelUploads }) => {
		const partSize: INodeProperties = {
			displayName: 'Part Size (MiB)',
			name: 'partSize',
			type: 'number',
			typeOptions: { minValue: MIN_PART_SIZE_MIB, maxValue: MAX_PART_SIZE_MIB },
			default: partSizeMiB,
			description: `Size of each part in MiB (${MIN_PART_SIZE_MIB} to ${MAX_PART_SIZE_MIB}). Memory used is about Part Size × (Parallel Uploads + 1).`,
			hint: 'Small parts mean many requests (a 10 GiB file at 5 MiB is 2048 parts); large parts mean more memory: Part Size × (Parallel Uploads + 1)',
			...where,
		};
		if (parallelUploads === undefined) {
			return [
				{
					...partSize,
					description: `Size of each part in MiB (${MIN_PART_SIZE_MIB} to ${MAX_PART_SIZE_MIB}). Parts of all files of the run share the Upload Memory option.`,
					hint: 'Small parts mean many requests (a 10 GiB file at 5 MiB is 2048 parts), each opening a connection; large parts need more of Upload Memory each',
				},
			];
		}
		return [
			partSize,
			{
				displayName: 'Parallel Uploads',
				name: 'parallelUploads',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_PARALLEL_UPLOADS },
				default: parallelUploads,
				description: `How many parts are sent at the same time (1 to ${MAX_PARALLEL_UPLOADS})`,
				...where,
			},
		];
	});
}

export function partSettings(values: IDataObject, row: NodeVersion): MultipartSettings {
	return {
		partSizeMiB: Number(values.partSize ?? row.partSizeMiB),
		// Without Parallel Uploads (the run's pool bounds the parts) any valid number keeps planParts content.
		parallelUploads: row.parallelUploads === undefined ? 1 : Number(values.parallelUploads ?? row.parallelUploads),
	};
}

export const description: INodeProperties[] = [
	...uploadFields('multipartUpload'),
	...partSettingFields(show),
	optionsCollection(show, [contentTypeOption, refuseExistingOption, ...uploadMemoryOptions]),
];

export async function execute(item: Item): Promise<INodeExecutionData[]> {
	const { where, source, inputs, refuseIfTaken } = await prepareUpload(item);
	const row = item.version;
	const settings = partSettings(
		{
			partSize: item.param('partSize', undefined) as number | undefined,
			parallelUploads:
				row.parallelUploads === undefined ? undefined : (item.param('parallelUploads', row.parallelUploads) as number),
		},
		row,
	);
	const stored = await multipartUpload(
		{ item, target: { ...where, ...inputs }, source, settings },
		{ refuseIfTaken, storedAll: true },
	);
	return item.output({ ...stored, ...source.output });
}
