import type { INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { downloadToBinary } from '../../download/download';
import { linkRewritesKey, rewrittenLinkWords } from '../../files/keys';
import type { Item } from '../../item';
import { getSignedUrl } from '../../transport/api';
import { transformationUrl } from '../../transport/transformations';
import { optionsCollection } from '../common';
import { fileKeyField, fileKeyOf, fileNameOf } from './fileKey';
import { segmentOf, transformFields } from './transformFields';

const show = { resource: ['file'], operation: ['transform'] };

export const description: INodeProperties[] = [
	fileKeyField(['transform']),
	...transformFields,
	{
		displayName: 'Download Transformed File',
		name: 'downloadTransformed',
		type: 'boolean',
		default: false,
		description: 'Whether to download the transformed file into a binary field, rather than only give its URL',
		displayOptions: { show },
	},
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: 'The name of the output binary field to put the transformed file in',
		description: 'Name of the binary field of the output item that receives the transformed file, usually data',
		displayOptions: { show: { ...show, downloadTransformed: [true] } },
	},
	optionsCollection(show),
];

export async function execute(item: Item): Promise<INodeExecutionData[]> {
	const where = item.bucket();
	const key = fileKeyOf(item);
	const segment = segmentOf(item);
	const client = await item.client();
	// The location (its access id) comes from the service's own answer, never guessed.
	const link = await getSignedUrl(client, where, key, 60);
	if (!link.is_public) {
		throw item.fail(
			`'${key}' is a private file: transformations are supported for public files only`,
			'The CDN serves a private file only through its signed link, and the service does not publish whether a signed link works with a transformation. Store the file as Public to transform it, or use Get Signed URL for the original.',
		);
	}
	const url = transformationUrl(link.url, segment);
	if (url === undefined)
		throw client.unexpectedAnswer(`Signed URL of '${key}'`, `"url" is not a file location (…/f/<access id>/<key>)`);
	// A URL client resolves a '.' segment: the URL handed out would be fetched as another file's.
	const rewrite = linkRewritesKey(link.url);
	if (rewrite) {
		const words = rewrittenLinkWords(`Transform of '${key}'`, rewrite);
		throw item.fail(words.message, words.description);
	}
	const json = { key, bucket: where.bucket, region: where.region, transformation: segment, url, location: link.url };
	if (item.param('downloadTransformed', false) !== true) return item.output(json);
	const field = String(item.param('binaryPropertyName', 'data')).trim();
	if (!field) {
		throw item.fail(
			"The parameter 'Put Output File in Field' is empty",
			"Enter the name of the output binary field, usually 'data'.",
		);
	}
	const { ctx, index: itemIndex } = item;
	const fileName = fileNameOf(key);
	const file = await downloadToBinary({ ctx, client, where, key, fileName, itemIndex, link: url });
	// Without a stated length a cut body looks whole (the CDN's length is all there is to judge it by).
	return item.output(
		{ ...json, size: file.size, sizeConfirmed: file.sizeConfirmed, content_type: file.binary.mimeType },
		{ [field]: file.binary },
	);
}
