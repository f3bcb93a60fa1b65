import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { transportSettings, type Item } from '../../item';
import { assertNotEmpty, resolveBinarySource } from '../../upload/binaryInput';
import { joinKey } from '../../files/keys';
import { atStart, binaryUploadSource, type UploadSource } from '../../upload/uploadSource';
import { openTextSource, TEXT_FILE_NAME_FIELD, textFields } from './textSource';
import { ALLOW_WITHOUT_LENGTH_FIELD, fileNameOfUrl, openUrlSource, parseSourceUrl } from '../../upload/urlSource';
import type { BucketRef, Visibility } from '../../transport/api';
import { NODE_VERSIONS, perVersion } from '../../versions';
import { folderFields, folderOf } from '../folder';
import { refuseExistingFile, replaceNotice, takenDuringUpload } from './existingFile';
import { refuseFilePath, removedFilePathNotice, removedFilePathOption } from './removedFilePath';

type Shown = Record<string, string[]>;

/** A field shown for `show`, and for `more` values of other fields. */
function shownFor(field: INodeProperties, show: Shown, more: Shown = {}): INodeProperties {
	return { ...field, displayOptions: { show: { ...show, ...more } } };
}

const sourceField = (operation: string): INodeProperties => ({
	displayName: 'Source',
	name: 'source',
	type: 'options',
	default: 'binary',
	description: 'Where the file to upload comes from',
	options: [
		{
			name: 'Binary Field',
			value: 'binary',
			description: 'A binary field of the input item, e.g. from Read/Write Files from Disk or HTTP Request',
		},
		{
			name: 'URL',
			value: 'url',
			description: 'Fetched by the node and streamed into the upload, never stored in n8n: for files too large for n8n',
		},
		// Upload only: a text is small, Multipart Upload is for files too large for one request.
		...(operation === 'upload'
			? [
					{
						name: 'Text',
						value: 'text',
						description: "Text typed or made by an expression, or the input item's JSON, stored as a file",
					},
				]
			: []),
		removedFilePathOption('source'),
	],
});

const binaryField: INodeProperties = {
	displayName: 'Input Binary Field',
	name: 'binaryPropertyName',
	type: 'string',
	default: 'data',
	required: true,
	description: 'Name of the binary field of the input item that holds the file, usually data',
};

const urlField: INodeProperties = {
	displayName: 'URL',
	name: 'sourceUrl',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. https://example.com/videos/talk.mp4',
	description:
		'Address of the file. Redirects are followed. Its query (e.g. the signature of a signed link) never appears in the output or in errors.',
};

const sourceHeadersField: INodeProperties = {
	displayName: 'Source Headers',
	name: 'sourceHeaders',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Header',
	default: {},
	description:
		'Headers sent with the request for the URL, e.g. Authorization. They go to its own origin only: a redirect to another host, port or scheme is followed without them.',
	options: [
		{
			displayName: 'Header',
			name: 'header',
			values: [
				{ displayName: 'Name', name: 'name', type: 'string', default: '' },
				{ displayName: 'Value', name: 'value', type: 'string', default: '', typeOptions: { password: true } },
			],
		},
	],
};

const allowWithoutLengthField: INodeProperties = {
	displayName: ALLOW_WITHOUT_LENGTH_FIELD,
	name: 'allowSourceWithoutLength',
	type: 'boolean',
	default: false,
	description:
		'Whether to upload from a URL whose answer states no Content-Length (chunked, or ended by closing the connection). The end of such a body cannot be told from a cut connection, so the stored file may be incomplete; the output then says sizeConfirmed: false. Off, such a URL fails and nothing is uploaded.',
};

const pathInFolderField: INodeProperties = {
	displayName: 'Path in Folder',
	name: 'key',
	type: 'string',
	default: '',
	placeholder: 'e.g. reports/2026/q1.pdf',
	hint: 'Folder + this path is the key, e.g. examples/reports/q1.txt',
	description:
		"Path of the file under Folder (the whole path in the bucket when Folder is empty); for a Text, the file's name. Empty: the name of the binary file or of the URL's last segment. Any characters are kept as typed (spaces, +, &, unicode). It cannot end in '/': that names a folder.",
};

const visibilityField: INodeProperties = {
	displayName: 'Visibility',
	name: 'visibility',
	type: 'options',
	default: 'private',
	description: 'Who can read the stored file',
	options: [
		{ name: 'Private', value: 'private', description: 'Only through signed links or with the API keys' },
		{ name: 'Public', value: 'public', description: 'Anyone who knows its location URL' },
	],
};

const publicNotice: INodeProperties = {
	displayName: 'Anyone with the file URL can read a public file. Use Private unless the file is meant to be published.',
	name: 'publicNotice',
	type: 'notice',
	default: '',
};

/** Fields shared by Upload and Multipart Upload, shown for the given operation. */
export function uploadFields(operation: string): INodeProperties[] {
	const show = { resource: ['file'], operation: [operation] };
	return [
		shownFor(sourceField(operation), show),
		removedFilePathNotice('source', show),
		shownFor(binaryField, show, { source: ['binary'] }),
		shownFor(urlField, show, { source: ['url'] }),
		// Upload only, as Source Text is: File Name's display depends on its own value, which n8n can
		// read only for a parameter whose name no other operation shares.
		...(operation === 'upload' ? textFields : []).map((field) => ({
			...field,
			displayOptions: {
				...field.displayOptions,
				show: { ...show, source: ['text'], ...(field.displayOptions?.show as Shown) },
			},
		})),
		shownFor(sourceHeadersField, show, { source: ['url'] }),
		// Versions 1 and 2 uploaded such sources before the switch existed: on by default there, so
		// saved workflows keep working (now with sizeConfirmed: false in the output). From version 3
		// a file is stored whole or not at all unless the user says otherwise.
		...perVersion(NODE_VERSIONS, (row) => [
			{ ...shownFor(allowWithoutLengthField, show, { source: ['url'] }), default: row.allowSourceWithoutLength },
		]),
		// Folder first: the key is Folder + Path in Folder, read in that order.
		...folderFields(
			show,
			"Folder to put the file in. The file's key is this folder followed by Path in Folder. Leave empty for the top of the bucket.",
		),
		shownFor(pathInFolderField, show),
		replaceNotice(show),
		shownFor(visibilityField, show),
		shownFor(publicNotice, show, { visibility: ['public'] }),
	];
}

export interface UploadInputs {
	key: string;
	visibility: Visibility;
	contentType: string;
}

const KEY_FIELD = 'Path in Folder';

/** The field that named the stored file, for errors that speak of the field the user filled. */
interface Naming {
	field: string;
	/** How to store under another name. */
	rename: string;
}

/** `from`: the source's words, as readNamedKey's callers give them ('input file', 'URL', 'text', "item's JSON"). */
function namingOf(typedKey: string, from: string): Naming {
	if (typedKey) return { field: KEY_FIELD, rename: `Choose another ${KEY_FIELD}` };
	// A text has no file of its own: with Path in Folder empty, File Name named it.
	if (from === 'text' || from === "item's JSON") {
		return {
			field: TEXT_FILE_NAME_FIELD,
			rename: `Choose another ${TEXT_FILE_NAME_FIELD}, or enter a ${KEY_FIELD} (it wins)`,
		};
	}
	return {
		field: `${KEY_FIELD} (empty: the ${from}'s name)`,
		rename: `Enter a ${KEY_FIELD} to store it under another name`,
	};
}

function readNamedKey(item: Item, fileName: string | undefined, from: string): { key: string; naming: Naming } {
	const typedKey = String(item.param('key', '') ?? '');
	const folder = folderOf(item);
	const name = typedKey || fileName || '';
	if (!name) {
		throw item.fail(
			`The parameter '${KEY_FIELD}' is empty and the ${from} has no name to use instead`,
			`Enter a ${KEY_FIELD} such as reports/q1.pdf.`,
		);
	}
	const naming = namingOf(typedKey, from);
	const key = item.validKey(joinKey(folder, name), naming.field);
	if (key.endsWith('/')) {
		const fallback =
			from === 'input file' || from === 'URL' ? `, or leave ${KEY_FIELD} empty to use the ${from}'s name` : '';
		throw item.fail(
			`The key '${key}' ends in '/': it names a folder, not a file (parameter '${naming.field}')`,
			`Add the file's name, e.g. ${key}q1.txt${typedKey ? fallback : ''}.`,
		);
	}
	return { key, naming };
}

function headersOf(item: Item): IDataObject {
	const entries = ((item.param('sourceHeaders', {}) as IDataObject).header ?? []) as IDataObject[];
	const headers: IDataObject = {};
	for (const entry of entries) {
		const name = String(entry.name ?? '').trim();
		if (name) headers[name] = String(entry.value ?? '');
	}
	return headers;
}

export const contentTypeOption: INodeProperties = {
	displayName: 'Content Type',
	name: 'contentType',
	type: 'string',
	default: '',
	placeholder: 'e.g. application/pdf',
	description: "MIME type to store the file with. Leave empty to use the input file's type.",
};

export interface PreparedUpload {
	where: BucketRef;
	source: UploadSource;
	inputs: UploadInputs;
	/** With Refuse Existing File: the error when a file is at the key just before the upload completes. */
	refuseIfTaken?: () => Error;
}

/** The source opened, with the key it gives and the field that named it; the key is checked before a URL is fetched. */
async function openSource(item: Item): Promise<{ source: UploadSource; key: string; naming: Naming }> {
	refuseFilePath(item, 'source');
	const kind = String(item.param('source', 'binary'));
	if (kind === 'text') {
		let naming: Naming | undefined;
		const opened = openTextSource(item, (...args) => {
			const named = readNamedKey(...args);
			naming = named.naming;
			return named.key;
		});
		return { ...opened, naming: naming! };
	}
	if (kind === 'url') {
		const url = parseSourceUrl(item, String(item.param('sourceUrl', '') ?? ''));
		const { key, naming } = readNamedKey(item, fileNameOfUrl(url), 'URL');
		const source = await openUrlSource(item, url, headersOf(item), {
			...transportSettings(item.options()),
			allowWithoutLength: item.param('allowSourceWithoutLength', item.version.allowSourceWithoutLength) === true,
		});
		return { source, key, naming };
	}
	// Not String(): an expression may hand over the file itself.
	const binary = await resolveBinarySource(item, item.param('binaryPropertyName'));
	assertNotEmpty(item, binary);
	return { source: binaryUploadSource(item.ctx, binary), ...readNamedKey(item, binary.fileName, 'input file') };
}

/** Everything Upload and Multipart Upload check before the first request. */
export async function prepareUpload(item: Item): Promise<PreparedUpload> {
	const where = item.bucket();
	const options = item.options();
	const visibility = item.param('visibility', 'private') as Visibility;
	const { source, key, naming } = await openSource(item);
	if (source.size === 0) {
		source.discard();
		throw item.fail(`${atStart(source)} is empty (0 bytes)`, 'There is nothing to upload. Check the source.');
	}
	// A source opened but not read (a URL's answer waiting) is let go when a check fails.
	const letGo = (error: unknown): never => {
		source.discard();
		throw error as NodeOperationError;
	};
	const client = await item.client().catch(letGo);
	// The check and the upload after it, while no other item of the run writes the key. With Replace
	// on too: an item whose write is under way could end with its outcome unknown and land on this
	// one's file after it was reported stored. Taking the turn refuses a key so marked before.
	const refuse = options.refuseExisting === true;
	await item.takeTurns([{ ...where, key }]).catch(letGo);
	await refuseExistingFile(item, client, { ...where, key }, naming.rename).catch(letGo);
	const contentType = String(options.contentType || source.mimeType || 'application/octet-stream');
	const refuseIfTaken = refuse ? () => takenDuringUpload(item, { ...where, key }, naming.rename) : undefined;
	return { where, source, inputs: { key, visibility, contentType }, refuseIfTaken };
}
