/** The table of node versions is the one place that decides what a version does. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeProperties } from 'n8n-workflow';

import { FileStorage } from '../../nodes/FileStorage/FileStorage.node';
import { FileStorageTrigger } from '../../nodes/FileStorage/FileStorageTrigger.node';
import {
	NODE_VERSIONS,
	perVersion,
	rowOf,
	shownFrom,
	shownIn,
	TRIGGER_VERSIONS,
	versionOf,
} from '../../nodes/FileStorage/versions';

const root = join(__dirname, '..', '..');
const TABLE = 'nodes/FileStorage/versions.ts';

function sourcesUnder(dir: string): string[] {
	return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
		const path = `${dir}/${entry.name}`;
		if (entry.isDirectory()) return sourcesUnder(path);
		return entry.name.endsWith('.ts') ? [path] : [];
	});
}

/**
 * What reads a node's version or writes a condition on it: a running node's typeVersion, an
 * '@version' condition or a comparing _cnd (gte, lt, …, as version conditions are), a version
 * condition built by hand, or a description's versions. A parameter's own condition (`exists`,
 * `regex`: what a field holds) is no version.
 */
const VERSION_CHECK =
	/typeVersion|['"]@version['"]|_cnd:\s*\{\s*(gte|gt|lte|lt|between)\b|\bshown(From|In)\(|\bversion:\s*\[|defaultVersion:\s*\d/;

describe('the table of versions is the one source', () => {
	const files = ['nodes', 'credentials'].flatMap(sourcesUnder);

	it('no file of nodes/ or credentials/ but the table reads a version or writes a version condition', () => {
		const checks = files
			.filter((file) => file !== TABLE)
			.flatMap((file) =>
				readFileSync(join(root, file), 'utf8')
					.split('\n')
					.map((line, index) => ({ where: `${file}:${index + 1}`, line: line.trim() }))
					.filter(({ line }) => VERSION_CHECK.test(line)),
			);
		expect(checks).toEqual([]);
	});

	it('the search above looks where the sources are, and finds the table’s own checks', () => {
		expect(files.length).toBeGreaterThan(40);
		expect(files).toContain(TABLE);
		const table = readFileSync(join(root, TABLE), 'utf8');
		for (const check of ['typeVersion', "'@version'", '_cnd: { gte', 'shownFrom(']) expect(table).toContain(check);
	});

	it('the versions the node and the trigger declare are the table’s, the newest what a new node gets', () => {
		expect(new FileStorage().description).toMatchObject({ version: [1, 2, 3], defaultVersion: 3 });
		expect(new FileStorageTrigger().description).toMatchObject({ version: [1, 2], defaultVersion: 2 });
		expect(NODE_VERSIONS.map((row) => row.version)).toEqual([1, 2, 3]);
		expect(TRIGGER_VERSIONS.map((row) => row.version)).toEqual([1, 2]);
	});
});

describe('the display conditions built from the table', () => {
	it('shownFrom and shownIn write the conditions n8n reads', () => {
		expect(shownFrom(3)).toEqual({ '@version': [{ _cnd: { gte: 3 } }] });
		expect(shownIn([1, 2])).toEqual({ '@version': [1, 2] });
		expect(shownIn([1])).toEqual({ '@version': [1] });
	});

	const table = (...values: string[]) => values.map((value, index) => ({ version: index + 1, value }));
	const field = (value: string, show?: Record<string, string[]>): INodeProperties => ({
		displayName: 'Field',
		name: 'field',
		type: 'string',
		default: value,
		...(show ? { displayOptions: { show } } : {}),
	});
	const conditionsOf = (fields: INodeProperties[]) =>
		fields.map((f) => [f.default, f.displayOptions?.show?.['@version']]);

	it('versions next to each other that build the same field share one copy: up to the change, then from it on', () => {
		const fields = perVersion(table('a', 'a', 'b'), (row) => [field(row.value)]);
		expect(conditionsOf(fields)).toEqual([
			['a', [1, 2]],
			['b', [{ _cnd: { gte: 3 } }]],
		]);
	});

	it('a field the same in every version gets no condition', () => {
		expect(perVersion(table('a', 'a', 'a'), (row) => [field(row.value)])).toEqual([field('a')]);
	});

	it('a value that comes back is a group of its own, so each version shows one copy', () => {
		const fields = perVersion(table('a', 'b', 'a'), (row) => [field(row.value)]);
		expect(conditionsOf(fields)).toEqual([
			['a', [1]],
			['b', [2]],
			['a', [{ _cnd: { gte: 3 } }]],
		]);
	});

	it('a version that builds nothing shows nothing, and the field’s own conditions come before the version', () => {
		const fields = perVersion(table('', 'a', 'a'), (row) => (row.value ? [field(row.value, { source: ['url'] })] : []));
		expect(fields).toHaveLength(1);
		expect(fields[0].displayOptions).toEqual({ show: { source: ['url'], '@version': [{ _cnd: { gte: 2 } }] } });
		expect(Object.keys(fields[0].displayOptions!.show!)).toEqual(['source', '@version']);
	});
});

describe('the row of a running node', () => {
	const running = (typeVersion: number) => ({ getNode: () => ({ typeVersion }) });

	it('is the row of its version', () => {
		for (const row of NODE_VERSIONS) expect(versionOf(running(row.version))).toBe(row);
	});

	it('is the row below for a version between two, and the first for one older than all', () => {
		expect(versionOf(running(2.5))).toBe(NODE_VERSIONS[1]);
		expect(versionOf(running(4))).toBe(NODE_VERSIONS[2]);
		expect(versionOf(running(0))).toBe(NODE_VERSIONS[0]);
		expect(rowOf(TRIGGER_VERSIONS, 3)).toBe(TRIGGER_VERSIONS[1]);
	});
});

describe('each version’s panel shows the defaults its row says the run uses', () => {
	/** Whether n8n shows a field in this version, as far as its '@version' condition goes. */
	const shownIn = (field: INodeProperties, version: number) =>
		(field.displayOptions?.show?.['@version'] ?? [version]).some((condition) =>
			typeof condition === 'number'
				? condition === version
				: version >= Number((condition as { _cnd: { gte: number } })._cnd.gte),
		);
	const withOptions = (list: INodeProperties[]): INodeProperties[] =>
		list.flatMap((p) => (p.type === 'collection' ? [p, ...(p.options as INodeProperties[])] : [p]));
	const node = withOptions(new FileStorage().description.properties);
	const trigger = withOptions(new FileStorageTrigger().description.properties);
	const defaultsIn = (list: INodeProperties[], name: string, version: number) => [
		...new Set(list.filter((p) => p.name === name && shownIn(p, version)).map((p) => p.default)),
	];

	it.each(NODE_VERSIONS.map((row) => [row.version, row]))('node version %s', (version, row) => {
		expect(defaultsIn(node, 'multipartThreshold', version)).toEqual([row.multipartThresholdMiB]);
		expect(defaultsIn(node, 'partSize', version)).toEqual([row.partSizeMiB]);
		expect(defaultsIn(node, 'parallelUploads', version)).toEqual(
			row.parallelUploads === undefined ? [] : [row.parallelUploads],
		);
		expect(defaultsIn(node, 'allowSourceWithoutLength', version)).toEqual([row.allowSourceWithoutLength]);
		expect(defaultsIn(node, 'parallelRequests', version)).toEqual(
			row.parallelItems ? [row.parallelItems.requests] : [],
		);
		expect(defaultsIn(node, 'uploadMemory', version)).toEqual(
			row.parallelItems ? [row.parallelItems.uploadMemoryMiB] : [],
		);
		const folders = node.filter((p) => p.name === 'folder' && shownIn(p, version)).map((p) => p.type);
		expect(new Set(folders)).toEqual(new Set([row.folderPicker ? 'resourceLocator' : 'string']));
	});

	it.each(TRIGGER_VERSIONS.map((row) => [row.version, row]))('trigger version %s', (version, row) => {
		expect(defaultsIn(trigger, 'parallelRequests', version)).toEqual([row.downloadParallelRequests]);
	});
});
