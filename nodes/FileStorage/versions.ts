import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

/**
 * Every difference between versions of the node and of the trigger, as data. A saved workflow
 * keeps the version it was saved with, so a row never changes once released: a change of meaning
 * is a new row. Nothing else in nodes/ reads a node's typeVersion or writes an '@version'
 * condition; it asks this table (test/unit/versions.test.ts checks that).
 */

/** What one version of the File Storage node does. */
export interface NodeVersion {
	readonly version: number;
	/** Folder is a picker (the bucket's folders, or a path typed in) rather than typed text. */
	readonly folderPicker: boolean;
	/** Download outputs the incoming item with the file added, as n8n's own download operations. */
	readonly downloadKeepsItem: boolean;
	/**
	 * Items run in parallel over one request pool and one memory budget per run, with the
	 * Parallel Requests and Upload Memory options and these defaults; undefined: one by one.
	 */
	readonly parallelItems?: { readonly requests: number; readonly uploadMemoryMiB: number };
	/** Upload, Copy and Move send the file in parts above this many MiB (Multipart Threshold's default). */
	readonly multipartThresholdMiB: number;
	/** Part Size's default, in MiB. */
	readonly partSizeMiB: number;
	/** Parallel Uploads' default (parts of one upload at once); undefined: no such option, the run's pool bounds them. */
	readonly parallelUploads?: number;
	/** Allow Source Without Content-Length's default: whether a Source URL without a length is uploaded. */
	readonly allowSourceWithoutLength: boolean;
}

/** What one version of the File Storage Trigger does. */
export interface TriggerVersion {
	readonly version: number;
	/** Parallel Requests' default: how many files a poll downloads at once with Download File. */
	readonly downloadParallelRequests: number;
}

export const NODE_VERSIONS: readonly NodeVersion[] = [
	{
		version: 1,
		folderPicker: false,
		downloadKeepsItem: false,
		multipartThresholdMiB: 32,
		partSizeMiB: 8,
		parallelUploads: 4,
		allowSourceWithoutLength: true,
	},
	// A change of meaning: Folder is a picker, Download keeps the incoming item.
	{
		version: 2,
		folderPicker: true,
		downloadKeepsItem: true,
		multipartThresholdMiB: 32,
		partSizeMiB: 8,
		parallelUploads: 4,
		allowSourceWithoutLength: true,
	},
	// Items in parallel; defaults from the far-service measurements (BENCHMARKS.md, "Many files",
	// "Upload threshold"): 24 MiB parts pay the new connection n8n opens per request less often,
	// and they overtake one request from about 28 MiB (above Part Size, so a file sent in parts has
	// two or more). A file is stored whole or not at all unless the user allows otherwise.
	{
		version: 3,
		folderPicker: true,
		downloadKeepsItem: true,
		parallelItems: { requests: 32, uploadMemoryMiB: 96 },
		multipartThresholdMiB: 28,
		partSizeMiB: 24,
		allowSourceWithoutLength: false,
	},
];

export const TRIGGER_VERSIONS: readonly TriggerVersion[] = [
	// Saved version 1 triggers download one file after another, as they always did.
	{ version: 1, downloadParallelRequests: 1 },
	// As many at once as the node's version 3 sends requests.
	{ version: 2, downloadParallelRequests: 32 },
];

interface Versioned {
	readonly version: number;
}

/** The versions of a table, for the description's `version`. */
export function versionsOf(table: readonly Versioned[]): number[] {
	return table.map((row) => row.version);
}

/** What a new node gets: the table's last row. */
export function latestOf(table: readonly Versioned[]): number {
	return table[table.length - 1].version;
}

/**
 * The row of a node version: the last one at or below it, so a version between two (n8n allows
 * 2.1) behaves as the one below, and one older than the first as the first.
 */
export function rowOf<Row extends Versioned>(table: readonly Row[], typeVersion: number): Row {
	let found = table[0];
	for (const row of table) if (typeVersion >= row.version) found = row;
	return found;
}

/** The behaviour of a version of the node. */
export function nodeVersion(typeVersion: number): NodeVersion {
	return rowOf(NODE_VERSIONS, typeVersion);
}

/** The behaviour of a version of the trigger. */
export function triggerVersion(typeVersion: number): TriggerVersion {
	return rowOf(TRIGGER_VERSIONS, typeVersion);
}

interface RunningNode {
	getNode(): { typeVersion: number };
}

/** The behaviour of a running File Storage node. */
export function versionOf(ctx: RunningNode): NodeVersion {
	return nodeVersion(ctx.getNode().typeVersion);
}

/** The behaviour of a running File Storage Trigger. */
export function triggerVersionOf(ctx: RunningNode): TriggerVersion {
	return triggerVersion(ctx.getNode().typeVersion);
}

type VersionCondition = Pick<NonNullable<IDisplayOptions['show']>, '@version'>;

/** Shown from this version on (also in versions added later). */
export function shownFrom(version: number): VersionCondition {
	return { '@version': [{ _cnd: { gte: version } }] };
}

/** Shown in these versions only. */
export function shownIn(versions: number[]): VersionCondition {
	return { '@version': [...versions] };
}

/**
 * The fields of a part of the panel, from what each version's row builds: versions next to each
 * other that build the same fields share one copy of them, shown in those versions only (from the
 * first of them on for the last group, so a version added later keeps them until its row differs).
 * A field's own show conditions come first, the version last.
 */
export function perVersion<Row extends Versioned>(
	table: readonly Row[],
	build: (row: Row) => INodeProperties[],
): INodeProperties[] {
	const groups: Array<{ versions: number[]; fields: INodeProperties[]; text: string }> = [];
	for (const row of table) {
		const fields = build(row);
		const text = JSON.stringify(fields);
		const last = groups[groups.length - 1];
		if (last?.text === text) last.versions.push(row.version);
		else groups.push({ versions: [row.version], fields, text });
	}
	return groups.flatMap(({ versions, fields }, index) => {
		// One group holds every version: no condition needed.
		if (groups.length === 1) return fields;
		const condition = index === groups.length - 1 ? shownFrom(versions[0]) : shownIn(versions);
		return fields.map((field) => ({
			...field,
			displayOptions: { ...field.displayOptions, show: { ...field.displayOptions?.show, ...condition } },
		}));
	});
}
