import { NodeOperationError } from 'n8n-workflow';

import { isFolderMarker, MAX_PAGE_SIZE, walkEntries } from '../listing/listing';
import type { ListEntry } from '../transport/api';
import type { PollRun } from './run';
import type { TriggerSettings } from './settings';
import type { ListedFile } from './state';

/** What one scan found. */
export interface Scan {
	/** Each matching file once. */
	files: ListedFile[];
	/**
	 * Whether every folder answered in one page (the empty page read after it only checks that end),
	 * so what is absent was absent at that moment.
	 */
	settled: boolean;
	/**
	 * Whether every file that was there during the whole scan was listed (one request per folder,
	 * or every page boundary proven: see listing/boundary.ts). Only then does an absence say that
	 * a file went away; otherwise the scan concludes nothing from what it did not see.
	 */
	complete: boolean;
}

/**
 * Whether a scan with these settings lists `key` when it is stored: under the folder (directly, unless
 * Include Subfolders), not a folder's marker, and matching the filter. The same rule as scan() below.
 */
export function watchesKey(settings: TriggerSettings, key: string): boolean {
	if (!key.startsWith(settings.prefix) || key.endsWith('/')) return false;
	return (settings.recursive || !key.slice(settings.prefix.length).includes('/')) && settings.filter(key);
}

/** Fields the listing may leave out or mistype become null, never a guess. */
function listedFile(entry: ListEntry): ListedFile {
	return {
		key: entry.path,
		name: String(entry.name ?? entry.path.slice(entry.path.lastIndexOf('/') + 1)),
		size: typeof entry.size === 'number' ? entry.size : null,
		content_type: typeof entry.content_type === 'string' ? entry.content_type : null,
		last_modified: typeof entry.last_modified === 'string' ? entry.last_modified : null,
		visibility: typeof entry.visibility === 'string' ? entry.visibility : null,
	};
}

function outOfTime({ ctx, settings }: PollRun): NodeOperationError {
	return new NodeOperationError(
		ctx.getNode(),
		`The scan of '${settings.where.bucket}' did not finish within this poll's time`,
		{
			description:
				'Nothing was emitted and the saved state is unchanged. Watch a smaller folder (or turn off Include Subfolders), or give polls more time.',
		},
	);
}

/** Every matching file under the folder; throws (and nothing is saved) if any page fails. */
export async function scan(run: PollRun): Promise<Scan> {
	const { client, settings } = run;
	const files = new Map<string, ListedFile>();
	let settled = true;
	let complete = true;
	const walk = walkEntries(client, {
		where: settings.where,
		prefix: settings.prefix,
		pageSize: MAX_PAGE_SIZE,
		recursive: settings.recursive,
		proveBoundaries: true,
		onFolder: (listing) => {
			if (listing.pages > 1) settled = false;
			if (!listing.settled) complete = false;
		},
	});
	for await (const entry of walk) {
		if (Date.now() > run.deadline) throw outOfTime(run);
		// A folder's marker (its own key, e.g. 'reports/') is a folder, not a file to report; without Include
		// Subfolders, a service or gateway that lists deeper files (no delimiter) must not widen the watch.
		if (entry.type !== 'file' || isFolderMarker(entry) || !watchesKey(settings, entry.path)) continue;
		files.set(entry.path, listedFile(entry));
	}
	return { files: [...files.values()], settled, complete };
}
