import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { MIB, multipartUpload, type MultipartTarget } from '../../helpers/multipartUpload';
import { readWholeAsForm, type UploadSource } from '../../helpers/uploadSource';
import { uploadFile, type StoredFile } from '../../transport/api';
import { formEnvelope } from '../../transport/formData';
import { withBodyMemory } from '../../transport/pool';
import type { FileStorageClient } from '../../transport/request';
import { uploadMemoryOption } from '../parallelItems';
import { partSettingFields, partSettings, partSizeFieldV3 } from './multipartUpload.operation';

/** Up to version 2; saved workflows store no default, so theirs stays this. */
export const DEFAULT_MULTIPART_THRESHOLD_MIB = 32;
/**
 * Version 3: against a far service, parts of 24 MiB (several in flight) overtake one request from
 * about 28 MiB (BENCHMARKS.md, "Upload threshold"). Above Part Size, so a file sent in parts always
 * has two or more.
 */
export const V3_DEFAULT_MULTIPART_THRESHOLD_MIB = 28;

/** The Multipart Threshold a node of this version uses when the option is not set. */
export function thresholdMiBFor(typeVersion: number): number {
	return typeVersion >= 3 ? V3_DEFAULT_MULTIPART_THRESHOLD_MIB : DEFAULT_MULTIPART_THRESHOLD_MIB;
}

/** The options of everything that stores through storeSource (Upload, Copy, Move). */
export function storeSourceOptions(thresholdDescription: string): INodeProperties[] {
	const threshold: INodeProperties = {
		displayName: 'Multipart Threshold (MiB)',
		name: 'multipartThreshold',
		type: 'number',
		typeOptions: { minValue: 5 },
		default: DEFAULT_MULTIPART_THRESHOLD_MIB,
		description: thresholdDescription,
	};
	return [
		// Its own default per version, as Part Size: the editor shows what the node uses when unset.
		{ ...threshold, displayOptions: { show: { '@version': [1, 2] } } },
		{
			...threshold,
			default: V3_DEFAULT_MULTIPART_THRESHOLD_MIB,
			displayOptions: { show: { '@version': [{ _cnd: { gte: 3 } }] } },
		},
		// Up to version 2 Part Size and Parallel Uploads; from version 3 Part Size (its own default) and Upload Memory.
		...[...partSettingFields, partSizeFieldV3].map((field) => ({
			...field,
			displayOptions: { show: { '@version': field.displayOptions!.show!['@version']! } },
		})),
		uploadMemoryOption,
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
	const typeVersion = ctx.getNode().typeVersion;
	const thresholdBytes = Number(options.multipartThreshold ?? thresholdMiBFor(typeVersion)) * MIB;
	const { size } = source;
	if (size === undefined || size > thresholdBytes) {
		return await multipartUpload(ctx, itemIndex, client, target, source, partSettings(options, typeVersion), {
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
