/**
 * States an earlier release saved for a trigger on `inbox/` with Include Subfolders off, through a service whose
 * one-level listing also named deeper files: for the tests of what this release does with them.
 */
import { BUCKET } from '../node/support';
import { placeOf, scopeOf, type ListedFile, type WatchState } from '../../nodes/FileStorage/trigger/state';
import { encodeState } from '../../nodes/FileStorage/trigger/stateCodec';

/** A file as the scripted folder lists it. */
export function listed(key: string, size = 5): ListedFile {
	const name = key.slice(key.lastIndexOf('/') + 1);
	const file = { key, name, size, content_type: 'text/plain', last_modified: '2026-01-01T00:00:00Z' };
	return { ...file, visibility: 'private' };
}

/** `state` as the earlier release saved it for `inbox/`, Include Subfolders off, keys kept or not (File Deleted). */
export function savedForFlatInbox(state: WatchState, keepKeys: boolean) {
	const scope = scopeOf({
		bucket: BUCKET.bucketName,
		region: BUCKET.region,
		prefix: 'inbox/',
		recursive: false,
		filter: '',
		keepKeys,
	});
	return encodeState(state, scope, placeOf(BUCKET.bucketName, BUCKET.region));
}
