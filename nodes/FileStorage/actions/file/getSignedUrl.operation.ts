import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { getSignedUrl } from '../../transport/api';
import { clientFor, getBucketRef, optionsCollection } from '../common';
import { fileKeyField, readFileKey } from './fileKey';

const show = { resource: ['file'], operation: ['getSignedUrl'] };
export const DEFAULT_EXPIRY_SECONDS = 3600;
/** A week, the longest presigned link the S3 storage behind the service honours. */
const MAX_EXPIRY_SECONDS = 7 * 24 * 3600;

export const description: INodeProperties[] = [
	fileKeyField(['getSignedUrl']),
	{
		displayName: 'Expires In (Seconds)',
		name: 'expiresIn',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_EXPIRY_SECONDS },
		default: DEFAULT_EXPIRY_SECONDS,
		description:
			'How long the link of a private file stays valid, in seconds (default 3600 = 1 hour). Public files get their plain location, which does not expire.',
		displayOptions: { show },
	},
	optionsCollection(show),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const where = getBucketRef(this, itemIndex);
	const key = readFileKey(this, itemIndex);
	const expiresIn = Number(this.getNodeParameter('expiresIn', itemIndex, DEFAULT_EXPIRY_SECONDS));
	if (!Number.isInteger(expiresIn) || expiresIn < 1 || expiresIn > MAX_EXPIRY_SECONDS) {
		throw new NodeOperationError(
			this.getNode(),
			`Expires In must be a whole number of seconds from 1 to ${MAX_EXPIRY_SECONDS} (got ${expiresIn})`,
			{
				itemIndex,
				description: `Set Expires In to how long the link should work, in seconds: at most ${MAX_EXPIRY_SECONDS} (7 days).`,
			},
		);
	}
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const client = await clientFor(this, itemIndex, options);
	const link = await getSignedUrl(client, where, key, expiresIn);
	const expires = link.is_public
		? {}
		: {
				expires_in: link.expires_in ?? expiresIn,
				expires_at: new Date(Date.now() + Number(link.expires_in ?? expiresIn) * 1000).toISOString(),
			};
	return [
		{
			json: { key, bucket: where.bucket, region: where.region, url: link.url, is_public: link.is_public, ...expires },
			pairedItem: { item: itemIndex },
		},
	];
}
