import type { INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { hasLoneSurrogate, joinKey } from '../../files/keys';
import type { Item } from '../../item';
import { timeOf } from '../../listing/listingTime';
import type { Visibility } from '../../transport/api';
import {
	BROWSER_OPERATIONS,
	isBrowserOperation,
	signedOperationUrl,
	type BrowserOperation,
	type OperationRequest,
} from '../../transport/operationUrls';
import { MAX_PARTS } from '../../upload/parts';
import { folderFields, folderOf } from '../folder';
import { namesAnotherCall } from '../multipartUpload/fields';

const show = { resource: ['file'], operation: ['signedOperationUrl'] };
/** The emulator's tolerance; the service publishes none (spec §1). */
export const ASSUMED_TOLERANCE_SECONDS = 300;
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(\\s*;.*)?$`, 's');
const TYPES = BROWSER_OPERATIONS.join(', ');
/**
 * Where n8n's Webhook node puts the browser's JSON body `{ type, params }`: the expressions the
 * panel and the errors suggest, so following them behind a Webhook gives the browser's values.
 */
const FROM_WEBHOOK = '$json.body.params';
/** The expression reading one of the browser's params behind a Webhook, e.g. {{ $json.body.params.key }}. */
const browserParam = (name: string) => `{{ ${FROM_WEBHOOK}.${name} }}`;
const VALIDITY =
	"The URL is good while its timestamp is within the service's clock tolerance, which is not published (the local emulator accepts ±300 s): sign each request just before the browser sends it.";

// No field depends on Request Type for being shown: the type usually comes from an expression
// (the browser's request), and a hidden field would be dropped from the saved workflow.
export const description: INodeProperties[] = [
	{
		displayName: 'Request Type',
		name: 'requestType',
		type: 'options',
		default: 'upload',
		description:
			"The browser SDK's type of request, usually an expression reading the type the browser's getSignedUrl(type, params) sent",
		hint: 'Behind a Webhook: {{ $json.body.type }}',
		// Alphabetical, as n8n's lint asks from five options on; the value is the SDK's own string.
		options: [
			{
				name: 'Cancel Multipart',
				value: 'cancelmultipart',
				description: 'SDK type "cancelmultipart": DELETE of a multipart upload and its parts; needs Upload ID',
			},
			{
				name: 'Complete Multipart',
				value: 'completemultipart',
				description: 'SDK type "completemultipart": POST of the part list; needs Upload ID',
			},
			{ name: 'Delete', value: 'delete', description: 'SDK type "delete": DELETE of the file' },
			{
				name: 'Start Multipart',
				value: 'start-multipart',
				description: 'SDK type "start-multipart": POST that starts a multipart upload; needs Total Parts',
			},
			{ name: 'Upload', value: 'upload', description: 'SDK type "upload": PUT of the whole file as form field "file"' },
			{
				name: 'Upload Part',
				value: 'uploadpart',
				description: 'SDK type "uploadpart": POST of one part as form field "file"; needs Upload ID and Part Number',
			},
		],
		displayOptions: { show },
	},
	...folderFields(
		show,
		"Folder the browser's key is put under: the file's key is this folder followed by Key. A Key that would leave it is refused. Empty: the top of the bucket.",
	),
	{
		displayName: 'Key',
		name: 'browserKey',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. photo.jpg',
		hint: `The browser's key (its file name), put under Folder. Behind a Webhook: ${browserParam('key')}`,
		description:
			"The file's path under Folder, as the browser asks for it. A key starting with '/' or with a '.' or '..' segment is refused.",
		displayOptions: { show },
	},
	{
		displayName: 'Visibility',
		name: 'visibility',
		type: 'options',
		default: 'private',
		description: 'Who can read the stored file (Upload and Start Multipart)',
		options: [
			{ name: 'Private', value: 'private', description: 'Only through signed links or with the API keys' },
			{ name: 'Public', value: 'public', description: 'Anyone who knows its location URL' },
		],
		displayOptions: { show },
	},
	{
		displayName: 'MIME Type',
		name: 'mimeType',
		type: 'string',
		default: '',
		placeholder: 'e.g. image/jpeg',
		description:
			'Content type the file is stored with (Start Multipart), e.g. the mimeType the browser sent. Empty: application/octet-stream. An Upload takes the type of its form part.',
		displayOptions: { show },
	},
	{
		displayName: 'Total Parts',
		name: 'totalParts',
		type: 'number',
		default: 0,
		description:
			'How many parts the file is sent in, 1–10000 (Start Multipart: required; Upload Part: sent when set). 0: not set.',
		displayOptions: { show },
	},
	{
		displayName: 'Upload ID',
		name: 'uploadId',
		type: 'string',
		default: '',
		placeholder: 'e.g. 9b2cf535f27731c974343645a3985328',
		description: 'The multipart upload (Upload Part, Complete Multipart, Cancel Multipart)',
		displayOptions: { show },
	},
	{
		displayName: 'Part Number',
		name: 'partNumber',
		type: 'number',
		default: 0,
		description: 'Number of the part, 1–10000 (Upload Part)',
		displayOptions: { show },
	},
];

/** A whole number parameter in [min, max]; undefined when not set (empty, 0 where 0 means unset). */
function wholeParam(item: Item, name: string, label: string, needed: boolean): number | undefined {
	const raw = item.param(name, 0);
	const given = raw !== undefined && raw !== null && raw !== '' && raw !== 0 && raw !== '0';
	if (!given && !needed) return undefined;
	const value = Number(raw);
	if (given && Number.isInteger(value) && value >= 1 && value <= MAX_PARTS) return value;
	throw item.fail(
		`The parameter '${label}' must be a whole number from 1 to ${MAX_PARTS} (got ${given ? JSON.stringify(raw) : 'none'})`,
		label === 'Total Parts' && !given
			? 'A multipart upload needs at least one part: an empty file (the browser SDK sends totalParts 0) can go as an Upload.'
			: `Set ${label}, e.g. ${browserParam(name)}.`,
	);
}

/**
 * A text the browser sent: a JSON object or array from its request would become "[object Object]"
 * or "a,b" as text (or throw, with a `toString` member), so it is refused naming the field.
 */
function textParam(item: Item, name: string, label: string): string {
	const value = item.param(name, '') ?? '';
	if (typeof value !== 'object') return String(value);
	throw item.fail(
		`The parameter '${label}' is ${Array.isArray(value) ? 'an array' : 'an object'}, not text`,
		`The browser's request must give ${label} as text, e.g. ${browserParam(name === 'browserKey' ? 'key' : name)}.`,
	);
}

function requiredUploadId(item: Item, type: BrowserOperation): string {
	const id = textParam(item, 'uploadId', 'Upload ID').trim();
	// The id is a path segment (spec §3.10): '.' and '..' are resolved away by URL clients and
	// proxies, and 'start' makes a part URL the start-multipart call's own path.
	if (namesAnotherCall(id)) {
		throw item.fail(
			`The Upload ID "${id}" is refused: in the URL's path it would name another call (parameter 'Upload ID')`,
			`Set Upload ID to the uploadId the start-multipart answer gave, e.g. ${browserParam('uploadId')}.`,
		);
	}
	if (id) return id;
	throw item.fail(
		`The parameter 'Upload ID' is empty; a ${type} request needs it`,
		`Set Upload ID to the uploadId the start-multipart answer gave, e.g. ${browserParam('uploadId')}.`,
	);
}

/** Folder + the browser's key; a key that would leave the folder is refused, never cleaned up. */
export function browserKeyOf(item: Item): string {
	const asked = textParam(item, 'browserKey', 'Key');
	if (!asked)
		throw item.fail("The parameter 'Key' is empty", `Set Key to the browser's key, e.g. ${browserParam('key')}.`);
	// URLSearchParams writes a lone surrogate as U+FFFD: the URL would be for another key than `key` says.
	if (hasLoneSurrogate(asked)) {
		throw item.fail(
			"The key has a lone UTF-16 surrogate, which is not a character (parameter 'Key')",
			'The browser must send the key as text; check how its request is built.',
		);
	}
	const segments = asked.split('/');
	if (asked.startsWith('/') || segments.includes('..') || segments.includes('.')) {
		throw item.fail(
			`The key "${asked.slice(0, 80)}" is refused: it starts with '/' or has a '.' or '..' segment, which could leave the Folder (parameter 'Key')`,
			'Give a path inside the folder, e.g. photo.jpg or 2026/photo.jpg. The node never rewrites a key the browser sent.',
		);
	}
	const key = item.validKey(joinKey(folderOf(item), asked), 'Key');
	if (key.endsWith('/')) {
		throw item.fail(
			`The key '${key}' ends in '/': it names a folder, not a file (parameter 'Key')`,
			'Add the file name.',
		);
	}
	return key;
}

/** A C0 control character or DEL (a regular expression of them is refused by n8n's lint). */
function hasControlCharacter(text: string): boolean {
	return [...text].some((char) => {
		const code = char.charCodeAt(0);
		return code < 0x20 || code === 0x7f;
	});
}

/**
 * The stored type a browser asked for: `type/subtype` in token characters, parameters after ';'
 * without control characters. The service serves it back as the file's Content-Type, so a line
 * break in it would be a header of the service's answer.
 */
function mimeTypeOf(item: Item): string {
	const asked = String(item.param('mimeType', '') ?? '').trim();
	if (!asked) return 'application/octet-stream';
	if (MEDIA_TYPE.test(asked) && !hasControlCharacter(asked)) return asked;
	throw item.fail(
		`The MIME Type ${JSON.stringify(asked.slice(0, 80))} is not a media type such as video/mp4 (parameter 'MIME Type')`,
		`Give type/subtype, e.g. ${browserParam('mimeType')} as the browser SDK sends the file's type, or leave it empty for application/octet-stream.`,
	);
}

function requestOf(item: Item): OperationRequest {
	const type = String(item.param('requestType', 'upload') ?? '').trim();
	if (!isBrowserOperation(type)) {
		throw item.fail(
			`The parameter 'Request Type' is "${type.slice(0, 40)}", not a type of the browser SDK`,
			`Use one of: ${TYPES}.`,
		);
	}
	const needsId = type === 'uploadpart' || type === 'completemultipart' || type === 'cancelmultipart';
	const usesParts = type === 'start-multipart' || type === 'uploadpart';
	return {
		type,
		key: browserKeyOf(item),
		visibility: (item.param('visibility', 'private') === 'public' ? 'public' : 'private') as Visibility,
		mimeType: type === 'start-multipart' ? mimeTypeOf(item) : undefined,
		totalParts: usesParts ? wholeParam(item, 'totalParts', 'Total Parts', type === 'start-multipart') : undefined,
		uploadId: needsId ? requiredUploadId(item, type) : undefined,
		partNumber: type === 'uploadpart' ? wholeParam(item, 'partNumber', 'Part Number', true) : undefined,
	};
}

export async function execute(item: Item): Promise<INodeExecutionData[]> {
	const where = item.bucket();
	const request = requestOf(item);
	const signed = signedOperationUrl(await item.client(), where, request);
	const signedAt = timeOf(signed.timestamp) ?? Date.now();
	const expiresAt = new Date(signedAt + ASSUMED_TOLERANCE_SECONDS * 1000).toISOString();
	return item.output({
		type: request.type,
		method: signed.method,
		url: signed.url,
		key: request.key,
		bucket: where.bucket,
		region: where.region,
		...(request.uploadId ? { uploadId: request.uploadId } : {}),
		timestamp: signed.timestamp,
		expiresAt,
		validity: VALIDITY,
	});
}
