import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { MIB, multipartUpload, type MultipartTarget } from '../../helpers/multipartUpload';
import { readWholeAsForm, type UploadSource } from '../../helpers/uploadSource';
import { uploadFile, type StoredFile } from '../../transport/api';
import { formEnvelope } from '../../transport/formData';
import { withBodyMemory } from '../../transport/pool';
import type { FileStorageClient } from '../../transport/request';
import { partSettings } from './multipartUpload.operation';

export const DEFAULT_MULTIPART_THRESHOLD_MIB = 32;

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
	const thresholdBytes = Number(options.multipartThreshold ?? DEFAULT_MULTIPART_THRESHOLD_MIB) * MIB;
	const { size } = source;
	if (size === undefined || size > thresholdBytes) {
		return await multipartUpload(
			ctx,
			itemIndex,
			client,
			target,
			source,
			partSettings(options, ctx.getNode().typeVersion),
			{ oneRequestIfOnePart: true },
		);
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
