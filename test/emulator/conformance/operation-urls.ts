/**
 * Signed operation URLs (spec §3.10) as a backend builds them for a browser, written from the spec
 * table: the call's own path and query (bucket_name, region, key, then the call's parameters,
 * URLSearchParams-encoded), signed over `METHOD\npath?query\ntimestamp`, then `access_key`,
 * `signature` and `timestamp` appended last in that order. And the browser's side: what the
 * browser SDK sends to each URL (method, body, Content-Type), over real HTTP.
 */
import { formBody, rawRequest, sign, type Credentials, type Response } from './client';

export type OperationType =
	'upload' | 'delete' | 'start-multipart' | 'uploadpart' | 'completemultipart' | 'cancelmultipart';

export const OPERATION_TYPES: OperationType[] = [
	'upload',
	'delete',
	'start-multipart',
	'uploadpart',
	'completemultipart',
	'cancelmultipart',
];

export interface OperationParams {
	key: string;
	uploadId?: string;
	partNumber?: number;
	totalParts?: number;
	mimeType?: string;
	visibility?: 'public' | 'private';
}

type Pairs = Array<[string, string | number | undefined]>;

interface Operation {
	method: string;
	path: (p: OperationParams) => string;
	extra: (p: OperationParams) => Pairs;
}

const id = (p: OperationParams) => encodeURIComponent(p.uploadId ?? '');

/** The spec's table; the server SDK's defaults (visibility `public`). */
export const OPERATIONS: Record<OperationType, Operation> = {
	upload: {
		method: 'PUT',
		path: () => '/api/v1/files/upload',
		extra: (p) => [['visibility', p.visibility ?? 'public']],
	},
	delete: { method: 'DELETE', path: () => '/api/v1/files/delete', extra: () => [] },
	'start-multipart': {
		method: 'POST',
		path: () => '/api/v1/files/multipart/start',
		extra: (p) => [
			['totalParts', p.totalParts],
			['mimeType', p.mimeType],
			['visibility', p.visibility ?? 'public'],
		],
	},
	uploadpart: {
		method: 'POST',
		path: (p) => `/api/v1/files/multipart/${id(p)}`,
		extra: (p) => [
			['partNumber', p.partNumber],
			['totalParts', p.totalParts],
		],
	},
	completemultipart: { method: 'POST', path: (p) => `/api/v1/files/multipart/${id(p)}/complete`, extra: () => [] },
	cancelmultipart: { method: 'DELETE', path: (p) => `/api/v1/files/multipart/${id(p)}`, extra: () => [] },
};

export interface SignedOperation {
	method: string;
	/** The target before the three credentials were appended: what the signature covers. */
	signedTarget: string;
	/** The full target to send: path, query, access_key, signature, timestamp. */
	target: string;
	accessKey: string;
	signature: string;
	timestamp: string;
}

export interface Signer {
	credentials: Credentials;
	bucket: string;
	region: string;
	/** Clock of the signer (default: now). */
	now?: () => number;
}

export function signOperation(s: Signer, type: OperationType, p: OperationParams): SignedOperation {
	const op = OPERATIONS[type];
	const params = new URLSearchParams();
	const pairs: Pairs = [['bucket_name', s.bucket], ['region', s.region], ['key', p.key], ...op.extra(p)];
	for (const [name, value] of pairs) if (value !== undefined) params.append(name, String(value));
	const signedTarget = `${op.path(p)}?${params.toString()}`;
	const timestamp = new Date(s.now ? s.now() : Date.now()).toISOString();
	const signature = sign(s.credentials.secretKey, op.method, signedTarget, timestamp);
	params.append('access_key', s.credentials.accessKey);
	params.append('signature', signature);
	params.append('timestamp', timestamp);
	return {
		method: op.method,
		signedTarget,
		target: `${op.path(p)}?${params.toString()}`,
		accessKey: s.credentials.accessKey,
		signature,
		timestamp,
	};
}

/** The three credentials as the SDK appends them, after any query `before`. */
export function withCredentials(before: string, o: Pick<SignedOperation, 'accessKey' | 'signature' | 'timestamp'>) {
	const tail = new URLSearchParams({ access_key: o.accessKey, signature: o.signature, timestamp: o.timestamp });
	return `${before}${before.includes('?') ? '&' : '?'}${tail.toString()}`;
}

export interface BrowserSend {
	/** The file's bytes (upload, part). */
	data?: Buffer;
	/** The part list (complete). */
	parts?: Array<{ ETag: string; PartNumber: number }>;
	filename?: string;
	contentType?: string;
	headers?: Record<string, string>;
	checkContract?: boolean;
}

/**
 * What `@apexxcloud/sdk-js` 1.0.23 sends to each URL: a form with field `file` (upload, part),
 * JSON with Content-Type application/json (start: `{filename, contentType, size}`; complete:
 * `{parts}`), nothing (delete, cancel). No authentication headers; an Origin, as a page would.
 */
export function sendAsBrowser(
	baseUrl: string,
	type: OperationType,
	method: string,
	target: string,
	o: BrowserSend = {},
): Promise<Response> {
	const headers: Record<string, string> = { Origin: 'https://app.example', ...o.headers };
	let body: Buffer | undefined;
	if (type === 'upload' || type === 'uploadpart') {
		const form = formBody([
			{
				name: 'file',
				filename: o.filename ?? 'photo.jpg',
				contentType: o.contentType,
				data: o.data ?? Buffer.alloc(0),
			},
		]);
		body = form.body;
		headers['Content-Type'] = form.contentType;
	} else if (type === 'start-multipart' || type === 'completemultipart') {
		const json =
			type === 'completemultipart'
				? { parts: o.parts ?? [] }
				: { filename: o.filename ?? 'photo.jpg', contentType: o.contentType ?? '', size: o.data?.length ?? 0 };
		body = Buffer.from(JSON.stringify(json));
		headers['Content-Type'] = 'application/json';
	}
	return rawRequest(baseUrl, { method, target, body, headers, checkContract: o.checkContract });
}
