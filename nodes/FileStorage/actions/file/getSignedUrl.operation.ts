import type { INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { Item } from '../../item';
import { getSignedUrl } from '../../transport/api';
import { optionsCollection } from '../common';
import { fileKeyField, fileKeyOf } from './fileKey';

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

export async function execute(item: Item): Promise<INodeExecutionData[]> {
	const where = item.bucket();
	const key = fileKeyOf(item);
	const expiresIn = Number(item.param('expiresIn', DEFAULT_EXPIRY_SECONDS));
	if (!Number.isInteger(expiresIn) || expiresIn < 1 || expiresIn > MAX_EXPIRY_SECONDS) {
		throw item.fail(
			`Expires In must be a whole number of seconds from 1 to ${MAX_EXPIRY_SECONDS} (got ${expiresIn})`,
			`Set Expires In to how long the link should work, in seconds: at most ${MAX_EXPIRY_SECONDS} (7 days).`,
		);
	}
	const link = await getSignedUrl(await item.client(), where, key, expiresIn);
	const expires = link.is_public
		? {}
		: {
				expires_in: link.expires_in ?? expiresIn,
				expires_at: new Date(Date.now() + Number(link.expires_in ?? expiresIn) * 1000).toISOString(),
			};
	return item.output({
		key,
		bucket: where.bucket,
		region: where.region,
		url: link.url,
		is_public: link.is_public,
		...expires,
	});
}
