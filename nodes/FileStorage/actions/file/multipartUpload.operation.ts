import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import {
	MAX_PARALLEL_UPLOADS,
	MAX_PART_SIZE_MIB,
	MIN_PART_SIZE_MIB,
	multipartUpload,
	type MultipartSettings,
} from '../../helpers/multipartUpload';
import { optionsCollection } from '../common';
import { contentTypeOption, prepareUpload, uploadFields } from './uploadFields';

export const DEFAULT_PART_SIZE_MIB = 8;
export const DEFAULT_PARALLEL_UPLOADS = 4;

const show = { resource: ['file'], operation: ['multipartUpload'] };

export const partSettingFields: INodeProperties[] = [
	{
		displayName: 'Part Size (MiB)',
		name: 'partSize',
		type: 'number',
		typeOptions: { minValue: MIN_PART_SIZE_MIB, maxValue: MAX_PART_SIZE_MIB },
		default: DEFAULT_PART_SIZE_MIB,
		description: `Size of each part in MiB (${MIN_PART_SIZE_MIB} to ${MAX_PART_SIZE_MIB}). Memory used is about Part Size × (Parallel Uploads + 1).`,
		hint: 'Small parts mean many requests (a 10 GiB file at 5 MiB is 2048 parts); large parts mean more memory: Part Size × (Parallel Uploads + 1)',
		displayOptions: { show },
	},
	{
		displayName: 'Parallel Uploads',
		name: 'parallelUploads',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_PARALLEL_UPLOADS },
		default: DEFAULT_PARALLEL_UPLOADS,
		description: `How many parts are sent at the same time (1 to ${MAX_PARALLEL_UPLOADS})`,
		displayOptions: { show },
	},
];

export function partSettings(values: IDataObject): MultipartSettings {
	return {
		partSizeMiB: Number(values.partSize ?? DEFAULT_PART_SIZE_MIB),
		parallelUploads: Number(values.parallelUploads ?? DEFAULT_PARALLEL_UPLOADS),
	};
}

export const description: INodeProperties[] = [
	...uploadFields('multipartUpload'),
	...partSettingFields,
	optionsCollection(show, [contentTypeOption]),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const { where, source, inputs, client } = await prepareUpload(this, itemIndex);
	const settings = partSettings({
		partSize: this.getNodeParameter('partSize', itemIndex, DEFAULT_PART_SIZE_MIB) as number,
		parallelUploads: this.getNodeParameter('parallelUploads', itemIndex, DEFAULT_PARALLEL_UPLOADS) as number,
	});
	const stored = await multipartUpload(this, itemIndex, client, { ...where, ...inputs }, source, settings);
	return [{ json: { ...stored, ...source.output }, pairedItem: { item: itemIndex } }];
}
