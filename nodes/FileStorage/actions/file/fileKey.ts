import type { INodeParameterResourceLocator, INodeProperties } from 'n8n-workflow';

import { keyFromLocation } from '../../files/keys';
import type { Item } from '../../item';

/** The key of an existing file: picked from the bucket listing, or typed. */
export function fileKeyField(operations: string[]): INodeProperties {
	return {
		displayName: 'File',
		name: 'fileKey',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'The file, by its path in the bucket (its key)',
		displayOptions: { show: { resource: ['file'], operation: operations } },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a file...',
				hint: 'Type a folder path ending in / (e.g. reports/) to list its files, or part of a name to search every folder below',
				typeOptions: { searchListMethod: 'searchFiles', searchable: true, searchFilterRequired: false },
			},
			{
				displayName: 'By Path',
				name: 'key',
				type: 'string',
				placeholder: 'e.g. reports/2026/q1.pdf',
				hint: 'The full path of the file in the bucket, e.g. reports/2026/q1.pdf',
			},
			{
				displayName: 'By URL',
				name: 'url',
				type: 'string',
				placeholder: 'e.g. https://cdn.apexxcloud.com/f/my-access-id/reports/2026/q1.pdf',
				hint: "A file's location or signed link, as Upload and Get Signed URL return it",
				validation: [
					{
						type: 'regex',
						properties: {
							regex: '^https?://[^/]+/f/[^/]+/.+',
							errorMessage: 'Paste a file location: https://<CDN host>/f/<access id>/<key>',
						},
					},
				],
			},
		],
	};
}

/**
 * A link as an error may repeat it: without its query and fragment (a signed link's signature)
 * and its user info (a password), also when it is too broken to parse as a URL.
 */
function shownLink(text: string): string {
	return text
		.trim()
		.split(/[?#]/)[0]
		.replace(/^((?:[a-z][a-z0-9+.-]*:)?\/\/)?[^/]*@/i, '$1')
		.slice(0, 200);
}

/** The key of the item's File parameter. */
export function fileKeyOf(item: Item): string {
	const picked = item.param('fileKey') as INodeParameterResourceLocator | string;
	if (typeof picked === 'object' && picked?.mode === 'url') {
		const key = keyFromLocation(String(picked.value ?? ''));
		if (key === undefined) {
			throw item.fail(
				`The URL "${shownLink(String(picked.value ?? ''))}" is not a file location (parameter 'File')`,
				"Paste a file's location or signed link as Upload and Get Signed URL return it: https://<CDN host>/f/<access id>/<key>.",
			);
		}
		return notAFolder(item, item.validKey(key, 'File'));
	}
	// What `extractValue` would give (no mode of this locator has a pattern), without a second read:
	// each read evaluates the expression again, about a millisecond apiece in n8n 2.x's expression VM.
	const value = typeof picked === 'object' && picked !== null ? picked.value : picked;
	const key = String(value ?? '');
	return notAFolder(item, item.validKey(key, 'File'));
}

/** A key ending in '/' is a folder (the listing spells folders so): said before any request. */
function notAFolder(item: Item, key: string): string {
	if (!key.endsWith('/')) return key;
	throw item.fail(
		`'${key}' is a folder, not a file (parameter 'File')`,
		'Pick a file in it (type the folder path in the File list to see its files). For the folder itself use Bucket → List Contents or Folder → Delete.',
	);
}

/** Last path segment of a key: the natural file name of a download. */
export function fileNameOf(key: string): string {
	const segments = key.split('/').filter(Boolean);
	return segments[segments.length - 1] ?? key;
}
