import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import {
	MAX_PARALLEL_UPLOADS,
	MAX_PART_SIZE_MIB,
	MIN_PART_SIZE_MIB,
	multipartUpload,
	type MultipartSettings,
} from '../../helpers/multipartUpload';
import { optionsCollection } from '../common';
import { uploadMemoryOption } from '../parallelItems';
import { refuseExistingOption } from './existingFile';
import { contentTypeOption, prepareUpload, uploadFields } from './uploadFields';

export const DEFAULT_PART_SIZE_MIB = 8;
export const DEFAULT_PARALLEL_UPLOADS = 4;
/** Version 3: larger parts pay the new connection n8n opens per request less often (BENCHMARKS.md). */
export const V3_DEFAULT_PART_SIZE_MIB = 24;

const show = { resource: ['file'], operation: ['multipartUpload'] };
const upToVersion2 = { '@version': [1, 2] };
const fromVersion3 = { '@version': [{ _cnd: { gte: 3 } }] };

export const partSettingFields: INodeProperties[] = [
	{
		displayName: 'Part Size (MiB)',
		name: 'partSize',
		type: 'number',
		typeOptions: { minValue: MIN_PART_SIZE_MIB, maxValue: MAX_PART_SIZE_MIB },
		default: DEFAULT_PART_SIZE_MIB,
		description: `Size of each part in MiB (${MIN_PART_SIZE_MIB} to ${MAX_PART_SIZE_MIB}). Memory used is about Part Size × (Parallel Uploads + 1).`,
		hint: 'Small parts mean many requests (a 10 GiB file at 5 MiB is 2048 parts); large parts mean more memory: Part Size × (Parallel Uploads + 1)',
		displayOptions: { show: { ...show, ...upToVersion2 } },
	},
	{
		displayName: 'Parallel Uploads',
		name: 'parallelUploads',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_PARALLEL_UPLOADS },
		default: DEFAULT_PARALLEL_UPLOADS,
		description: `How many parts are sent at the same time (1 to ${MAX_PARALLEL_UPLOADS})`,
		displayOptions: { show: { ...show, ...upToVersion2 } },
	},
];

/** Version 3: no Parallel Uploads; the run's Parallel Requests and Upload Memory bound the parts in flight. */
export const partSizeFieldV3: INodeProperties = {
	...partSettingFields[0],
	default: V3_DEFAULT_PART_SIZE_MIB,
	description: `Size of each part in MiB (${MIN_PART_SIZE_MIB} to ${MAX_PART_SIZE_MIB}). Parts of all files of the run share the Upload Memory option.`,
	hint: 'Small parts mean many requests (a 10 GiB file at 5 MiB is 2048 parts), each opening a connection; large parts need more of Upload Memory each',
	displayOptions: { show: { ...show, ...fromVersion3 } },
};

export function partSettings(values: IDataObject, typeVersion = 2): MultipartSettings {
	return {
		partSizeMiB: Number(values.partSize ?? (typeVersion >= 3 ? V3_DEFAULT_PART_SIZE_MIB : DEFAULT_PART_SIZE_MIB)),
		// Version 3 ignores it (see partSizeFieldV3); any valid number keeps planParts content.
		parallelUploads: typeVersion >= 3 ? 1 : Number(values.parallelUploads ?? DEFAULT_PARALLEL_UPLOADS),
	};
}

export const description: INodeProperties[] = [
	...uploadFields('multipartUpload'),
	...partSettingFields,
	partSizeFieldV3,
	optionsCollection(show, [contentTypeOption, refuseExistingOption, uploadMemoryOption]),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const { where, source, inputs, client } = await prepareUpload(this, itemIndex);
	const typeVersion = this.getNode().typeVersion;
	const settings = partSettings(
		{
			partSize: this.getNodeParameter('partSize', itemIndex, undefined) as number | undefined,
			parallelUploads:
				typeVersion >= 3
					? undefined
					: (this.getNodeParameter('parallelUploads', itemIndex, DEFAULT_PARALLEL_UPLOADS) as number),
		},
		typeVersion,
	);
	const stored = await multipartUpload(this, itemIndex, client, { ...where, ...inputs }, source, settings);
	return [{ json: { ...stored, ...source.output }, pairedItem: { item: itemIndex } }];
}
