import type { IDataObject } from 'n8n-workflow';

/** The shapes the File Storage API answers with (see api.ts). */

export interface BucketRef {
	bucket: string;
	region: string;
	/**
	 * The node's parameters that name this bucket, as the user sees them (e.g. "Destination Bucket Name and
	 * Destination Region"): a 404 of the bucket says to check these. Unset: Bucket Name and Region.
	 */
	fields?: string;
}

export type Visibility = 'public' | 'private';

export interface ListEntry extends IDataObject {
	name: string;
	type: 'file' | 'folder' | string;
	path: string;
}

export interface ListPage {
	contents: { name: string; type: string; path: string; children?: ListEntry[] };
	pagination: { current_page: number; total_pages: number; total_items: number; items_per_page: number };
}

export interface StoredFile extends IDataObject {
	message: string;
	key: string;
	location: string;
	bucket: string;
	region: string;
	visibility: Visibility;
	size: number;
	content_type: string;
}

export interface StartedUpload extends IDataObject {
	uploadId: string;
	key: string;
	bucket: string;
	fileId?: string;
}

/** Spelled as the service answers a part upload: lower-case `partNumber`. */
export interface UploadedPart extends IDataObject {
	partNumber: number;
	ETag: string;
}
