import type { IDataObject, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { Item } from '../../item';
import { purgeFile } from '../../transport/api';
import { optionsCollection } from '../common';
import { storeSource, storeSourceOptions } from './storeSource';
import { refuseExistingOption } from './existingFile';
import { contentTypeOption, prepareUpload, uploadFields } from './uploadFields';

export const description: INodeProperties[] = [
	...uploadFields('upload'),
	optionsCollection({ resource: ['file'], operation: ['upload'] }, [
		contentTypeOption,
		refuseExistingOption,
		...storeSourceOptions(
			'Files larger than this many MiB are uploaded in parts, a few MiB at a time, instead of in one request that holds the whole file in memory. A source whose size is not known in advance (a URL without Content-Length) goes in one request only when it fits in one part.',
		),
		{
			displayName: 'Purge CDN Cache',
			name: 'purgeCdnCache',
			type: 'boolean',
			default: false,
			description:
				"Whether to clear the file from the CDN cache once it is stored, so its location serves the new version at once when an existing file is replaced. The output's purge field lists the purged URLs.",
		},
	]),
];

export async function execute(item: Item): Promise<INodeExecutionData[]> {
	const { where, source, inputs, refuseIfTaken } = await prepareUpload(item);
	let stored: IDataObject = await storeSource(item, { ...where, ...inputs }, source, {
		refuseIfTaken,
		storedAll: true,
	});
	if (item.options().purgeCdnCache === true) {
		const purged = await purgeFile(
			await item.client(),
			where,
			inputs.key,
			`Purge of the CDN cache for '${inputs.key}' (the file itself was uploaded)`,
		);
		stored = { ...stored, purge: { message: purged.message, urls: purged.urls } };
	}
	return item.output({ ...stored, ...source.output });
}
