import { FILES, multipartPath } from './answerChecks';
import type { BucketRef, Visibility } from './apiTypes';
import { familyRoutes, type Route } from './pathFamily';
import type { FileStorageClient } from './request';
import type { QueryValue } from './signing';

/**
 * Signed operation URLs (spec §3.10): one API call a browser sends without the secret. The types
 * are the official SDKs' own strings, so a workflow can pass a browser's request straight through.
 */
export const BROWSER_OPERATIONS = [
	'upload',
	'start-multipart',
	'uploadpart',
	'completemultipart',
	'cancelmultipart',
	'delete',
] as const;

export type BrowserOperation = (typeof BROWSER_OPERATIONS)[number];

export function isBrowserOperation(value: string): value is BrowserOperation {
	return (BROWSER_OPERATIONS as readonly string[]).includes(value);
}

/** What the URL of one call carries, checked by the caller. */
export interface OperationRequest {
	type: BrowserOperation;
	key: string;
	visibility: Visibility;
	mimeType?: string;
	totalParts?: number;
	uploadId?: string;
	partNumber?: number;
}

interface OperationRoute extends Route {
	/** The call's own parameters, after bucket_name, region and key. */
	query: Array<[string, QueryValue]>;
}

/** §3.10's table. Part upload and cancel use the SDK path family, the one the official SDKs sign. */
function routeOf(r: OperationRequest): OperationRoute {
	switch (r.type) {
		case 'upload':
			return { method: 'PUT', path: `${FILES}/upload`, query: [['visibility', r.visibility]] };
		case 'delete':
			return { method: 'DELETE', path: `${FILES}/delete`, query: [] };
		case 'start-multipart':
			return {
				method: 'POST',
				path: `${FILES}/multipart/start`,
				query: [
					['totalParts', r.totalParts],
					['mimeType', r.mimeType],
					['visibility', r.visibility],
				],
			};
		case 'uploadpart':
			return {
				...familyRoutes.uploadPart(r.uploadId ?? '').sdk,
				query: [
					['partNumber', r.partNumber],
					['totalParts', r.totalParts],
				],
			};
		case 'completemultipart':
			return { method: 'POST', path: multipartPath(r.uploadId ?? '', 'complete'), query: [] };
		case 'cancelmultipart':
			return { ...familyRoutes.cancel(r.uploadId ?? '').sdk, query: [] };
	}
}

export interface SignedOperation {
	method: string;
	url: string;
	/** The signing time as sent (`toISOString()`): the URL is good while it is within the service's tolerance. */
	timestamp: string;
}

/** The signed URL of one call; `now` is the signing time. Sends nothing. */
export function signedOperationUrl(
	client: FileStorageClient,
	where: BucketRef,
	request: OperationRequest,
	now = new Date(),
): SignedOperation {
	const route = routeOf(request);
	const timestamp = now.toISOString();
	const query: Array<[string, QueryValue]> = [
		['bucket_name', where.bucket],
		['region', where.region],
		['key', request.key],
		...route.query,
	];
	return { method: route.method, url: client.querySignedUrl(route.method, route.path, query, timestamp), timestamp };
}
