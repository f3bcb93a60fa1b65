import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { Item } from '../../item';
import { multipartUpload, uploadWhole, type MultipartOptions } from '../../upload/multipartUpload';
import { MIB, type MultipartTarget } from '../../upload/parts';
import { readWholeAsForm, type UploadSource } from '../../upload/uploadSource';
import type { StoredFile } from '../../transport/api';
import { formEnvelope } from '../../transport/formData';
import { withBodyMemory } from '../../transport/pool';
import { uploadMemoryOptions } from '../parallelItems';
import { NODE_VERSIONS, perVersion } from '../../versions';
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
 * `refuseIfTaken`: the key must be free, checked again before an upload in parts completes, and
 * before any repeat of the request that stores the file (its Complete, or the one request).
 * `storedAll`: the answer must say every byte was stored (Upload; see MultipartOptions.storedAll).
 */
export async function storeSource(
	item: Item,
	target: MultipartTarget,
	source: UploadSource,
	{ refuseIfTaken, storedAll = false }: Pick<MultipartOptions, 'refuseIfTaken' | 'storedAll'> = {},
): Promise<StoredFile & IDataObject> {
	// Before the first byte: a read of this key in another bucket may be answered with this file.
	item.run.turns.wroteAt(target);
	const options = item.options();
	const row = item.version;
	const thresholdBytes = Number(options.multipartThreshold ?? row.multipartThresholdMiB) * MIB;
	const { size } = source;
	if (size === undefined || size > thresholdBytes) {
		const settings = partSettings(options, row);
		return await multipartUpload(
			{ item, target, source, settings },
			{ oneRequestIfOnePart: true, refuseIfTaken, storedAll },
		);
	}
	// Version 3: the whole body counts against the run's Upload Memory while it is read and sent.
	return await withBodyMemory(item.pool, size, async () => {
		const form = await readWholeAsForm(item, { ...source, size }, formEnvelope(target.key, target.contentType));
		return await uploadWhole(item, target, form, {
			mustNotReplace: refuseIfTaken !== undefined,
			sent: storedAll ? size : undefined,
		});
	});
}
