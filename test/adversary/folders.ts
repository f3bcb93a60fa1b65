/**
 * Schedules of Folder → Copy and Folder → Move (drawn apart from schedule.ts's, from their own seeds):
 * a source folder `from/` of two to four files (one in the sub-folder `from/sub/`), copied or moved
 * to `to/`; version 2 or 3, Replace Existing Files, Include Subfolders and (rarely) Dry Run on or off;
 * some destinations there before, with the source's bytes or other ones (of the same size or not).
 * Other writers act at the node's requests: they rewrite a source (same size, other bytes; or
 * another size), delete one, add a file to the folder, write a destination, read through the CDN;
 * the storage may keep an upload short. Often the run is stopped at a drawn request and run again
 * (run.ts). The service pages a listing by the node's `limit` and the node asks for 1000 entries,
 * so these folders are one page each: pages are the business of folderTransferRuns.test.ts.
 */
import type { INodeParameters } from 'n8n-workflow';

import { drawCdnPolicy, type CdnPolicy } from './cdn';
import { Random } from './random';
import {
	hostSkew,
	SIZE,
	type Action,
	type Role,
	type Scenario,
	type Schedule,
	type SetupFile,
	type Trigger,
} from './schedule';

export const FROM = 'from/';
export const TO = 'to/';

export { QUIET_CDN } from './cdn';

const SOURCES = { fa: 'ta', fb: 'tb', fc: 'tc', fd: 'td', fnew: 'tnew' } as const;
type SourceRole = keyof typeof SOURCES;

export const isFolderTransfer = (scenario: Pick<Scenario, 'operation'>) =>
	scenario.operation === 'folderCopy' || scenario.operation === 'folderMove';

/** The schedule's folder (`s<seed>-<n>/`) of a key. */
const rootOf = (key: string) => key.slice(0, key.indexOf('/') + 1);

/** Whether `key` is a file the scenario's folder operation handles: under `from/`, and directly in it without sub-folders. */
export function inScope(scenario: Scenario, key: string): boolean {
	const root = rootOf(key);
	if (!key.startsWith(`${root}${FROM}`)) return false;
	return scenario.includeSubfolders || !key.slice(`${root}${FROM}`.length).includes('/');
}

/** The destination of a source key: the same path below `to/`. */
export function destinationOf(key: string): string {
	const root = rootOf(key);
	return `${root}${TO}${key.slice(`${root}${FROM}`.length)}`;
}

export function folderParameters(scenario: Scenario, folder: string, options: INodeParameters): INodeParameters {
	return {
		resource: 'folder',
		operation: scenario.operation === 'folderCopy' ? 'copy' : 'move',
		folder: { __rl: true, mode: 'path', value: `${folder}${FROM}` },
		destinationFolder: { __rl: true, mode: 'path', value: `${folder}${TO}` },
		includeSubfolders: scenario.includeSubfolders,
		replace: scenario.replace,
		dryRun: scenario.dryRun,
		options,
	};
}

function drawFolderScenario(random: Random): Scenario {
	const operation = random.pick(['folderCopy', 'folderMove'] as const);
	const file = (role: Role): SetupFile => ({
		role,
		visibility: random.chance(0.75) ? 'public' : 'private',
		viewed: random.chance(0.5),
		rewritten: random.pick([undefined, undefined, undefined, 'sameSecond', 'later'] as const),
	});
	const sources: SourceRole[] = ['fa', 'fb'];
	if (random.chance(0.7)) sources.push('fc');
	if (random.chance(0.5)) sources.push('fd');
	const setup = sources.map(file);
	if (operation === 'folderMove' && random.chance(0.2)) random.pick(setup).fresh = true;
	for (const source of sources) {
		if (!random.chance(0.4)) continue;
		const kind = random.pick(['same', 'same', 'other', 'otherSize'] as const);
		const there = file(SOURCES[source]);
		if (kind === 'same') there.sameAs = source;
		if (kind === 'otherSize') there.size = SIZE + 7;
		setup.push(there);
	}
	const version = random.pick([2, 3] as const);
	return {
		operation,
		version,
		items: [],
		replace: random.chance(0.4),
		dryRun: random.chance(0.08),
		includeSubfolders: random.chance(0.7),
		setup,
		...(version === 3 && random.chance(0.3) ? { parallelRequests: 1 } : {}),
	};
}

function drawFolderTriggers(random: Random, scenario: Scenario): Trigger[] {
	const sources = scenario.setup.map((f) => f.role).filter((role): role is SourceRole => role in SOURCES);
	// Mostly the source folder; sometimes a file added to it, or a destination written.
	const roles: Role[] = [...sources, ...sources, 'fnew', ...sources.map((role) => SOURCES[role])];
	const actions: Action[] = ['rewriteSame', 'rewriteSame', 'rewriteOther', 'delete', 'delete', 'view'];
	const triggers: Trigger[] = [];
	const fresh = scenario.setup.find((f) => f.fresh);
	if (fresh && random.chance(0.6)) {
		const op = random.pick(['cdn', 'list'] as const);
		triggers.push({ op, nth: random.int(1, 3), phase: 'after', action: 'rewriteSame', role: fresh.role });
	}
	return triggers.concat(
		Array.from({ length: random.int(0, 4) }, (): Trigger => {
			const op = random.pick([
				'signedUrl',
				'signedUrl',
				'purge',
				'cdn',
				'cdn',
				'list',
				'list',
				'upload',
				'delete',
			] as const);
			const short = op === 'upload' && random.chance(0.5);
			return {
				op,
				nth: random.int(1, 5),
				phase: short ? 'after' : random.pick(['before', 'after'] as const),
				action: short ? 'shortStore' : random.pick(actions),
				role: short ? 'ta' : random.pick(roles),
			};
		}),
	);
}

/** A Folder → Copy or Move schedule; about half are stopped at a drawn request and run again. */
export function drawFolderSchedule(seed: number): Schedule {
	const random = new Random(seed ^ 0x2f01de55);
	const scenario = drawFolderScenario(random);
	const storageSkewMs = hostSkew(random.next());
	const cdn = drawCdnPolicy(random);
	const triggers = drawFolderTriggers(random, scenario);
	const stop = random.chance(0.5)
		? { nth: random.int(2, 28), phase: random.pick(['before', 'after'] as const) }
		: undefined;
	return { seed, storageSkewMs, scenario, cdn, triggers, ...(stop ? { stop } : {}) };
}
