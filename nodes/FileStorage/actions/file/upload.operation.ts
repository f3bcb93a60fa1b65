import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { readAsForm } from '../../helpers/binaryInput';
import { MIB, multipartUpload } from '../../helpers/multipartUpload';
import { uploadFile } from '../../transport/api';
import { formEnvelope } from '../../transport/formData';
import { optionsCollection } from '../common';
import { partSettingFields, partSettings } from './multipartUpload.operation';
import { contentTypeOption, prepareUpload, uploadFields } from './uploadFields';

export const DEFAULT_MULTIPART_THRESHOLD_MIB = 32;

export const description: INodeProperties[] = [
	...uploadFields('upload'),
	optionsCollection({ resource: ['file'], operation: ['upload'] }, [
		contentTypeOption,
		{
			displayName: 'Multipart Threshold (MiB)',
			name: 'multipartThreshold',
			type: 'number',
			typeOptions: { minValue: 5 },
			default: DEFAULT_MULTIPART_THRESHOLD_MIB,
			description:
				'Files larger than this many MiB are uploaded in parts, a few MiB at a time, instead of in one request that holds the whole file in memory',
		},
		...partSettingFields.map((field) => ({ ...field, displayOptions: undefined })),
	]),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const { where, options, source, inputs, client } = await prepareUpload(this, itemIndex);
	const thresholdBytes = Number(options.multipartThreshold ?? DEFAULT_MULTIPART_THRESHOLD_MIB) * MIB;
	let stored: IDataObject;
	if (source.size > thresholdBytes) {
		stored = await multipartUpload(this, itemIndex, client, { ...where, ...inputs }, source, partSettings(options));
	} else {
		const form = await readAsForm(this, itemIndex, source, formEnvelope(inputs.key, inputs.contentType));
		stored = await uploadFile(client, where, { key: inputs.key, visibility: inputs.visibility, form });
	}
	return [{ json: stored, pairedItem: { item: itemIndex } }];
}
