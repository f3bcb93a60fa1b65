import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { MIB, multipartUpload, type MultipartTarget } from '../../upload/multipartUpload';
import { readWholeAsForm, type UploadSource } from '../../upload/uploadSource';
import { uploadFile, type StoredFile } from '../../transport/api';
import { formEnvelope } from '../../transport/formData';
import { withBodyMemory } from '../../transport/pool';
import type { FileStorageClient } from '../../transport/request';
import { uploadMemoryOptions } from '../parallelItems';
import { NODE_VERSIONS, perVersion, versionOf } from '../../versions';
import { partSettingFields, partSettings } from './multipartUpload.operation';

/** The options of everything that stores through storeSource (Upload, Copy, Move). */
export function storeSourceOptions(thresholdDescription: string): INodeProperties[] {
	return [
		// Its own default per version, as Part Size: the editor shows what the node uses when unset.
		...perVersion(NODE_VERSIONS, ({ multipartThresholdMiB }) => [
			{
				displayName: 'Multipart Threshold (MiB)',
				name: 'multipartThreshold',
				type: 'number',
				typeOptions: { minValue: 5 },
				default: multipartThresholdMiB,
				description: thresholdDescription,
			},
		]),
		// Part Size (its own default per version), and Parallel Uploads or Upload Memory.
		...partSettingFields(),
		...uploadMemoryOptions,
	];
}

/**
 * Stores a source as Upload does (and Copy after it): up to the Multipart Threshold in one
 * request, larger or of unknown size in parts with the bounded pool of part bodies.
 */
export async function storeSource(
	ctx: IExecuteFunctions,
	itemIndex: number,
	client: FileStorageClient,
	target: MultipartTarget,
	source: UploadSource,
	options: IDataObject,
): Promise<StoredFile & IDataObject> {
	const row = versionOf(ctx);
	const thresholdBytes = Number(options.multipartThreshold ?? row.multipartThresholdMiB) * MIB;
	const { size } = source;
	if (size === undefined || size > thresholdBytes) {
		return await multipartUpload(ctx, itemIndex, client, target, source, partSettings(options, row), {
			oneRequestIfOnePart: true,
		});
	}
	// Version 3: the whole body counts against the run's Upload Memory while it is read and sent.
	return await withBodyMemory(ctx, size, async () => {
		const form = await readWholeAsForm(
			ctx,
			itemIndex,
			{ ...source, size },
			formEnvelope(target.key, target.contentType),
		);
		return await uploadFile(client, target, { key: target.key, visibility: target.visibility, form });
	});
}
