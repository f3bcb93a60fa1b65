/**
 * One schedule of the seeded adversary: a composite operation of the node (Copy, Move, Upload
 * with Refuse Existing File, Folder → Delete; versions 2 and 3, one to three items; Folder → Copy
 * and Move are drawn apart, in folders.ts, with a stop and a run again), the files
 * there before it, the CDN's behaviour (cdn.ts), the storage's clock, and other writers acting
 * at chosen points of the node's requests. Everything is drawn from the seed; the node runs
 * through n8n-core's engine against the in-process emulator, whose history of stored versions
 * the invariants (invariants.ts) are checked against. run.ts runs a schedule.
 */
import type { HistoryEvent } from '../emulator/history';
import { drawCdnPolicy, QUIET_CDN, type CdnPolicy } from './cdn';
import { drawHold, type Hold } from './holds';
import { drawPause, type Pause, type PauseSpan } from './pauses';
import { Random } from './random';

export const BUCKET = { name: 'my-bucket', region: 'us-east-1' };
export const SIZE = 16;

export type Operation = 'copy' | 'move' | 'upload' | 'folderDelete' | 'folderCopy' | 'folderMove';
/** Folder → Copy and Move (folders.ts): `f…` are files of the source folder `from/` (`fc` in its sub-folder), `t…` the same paths below `to/`. */
export type FolderRole = 'fa' | 'fb' | 'fc' | 'fd' | 'fnew' | 'ta' | 'tb' | 'tc' | 'td' | 'tnew';
export type Role =
	'src1' | 'src2' | 'src3' | 'dst' | 'dst2' | 'dst3' | 'dirA' | 'dirB' | 'dirSub' | 'outside' | 'dirNew' | FolderRole;
/** rewriteSameOtherKind: the same size, another content type or visibility (the listing shows the difference). */
export type Action = 'rewriteSame' | 'rewriteSameOtherKind' | 'rewriteOther' | 'delete' | 'view' | 'shortStore';

/** Another writer's act, at the `nth` request of the node of kind `op`, before or after it is handled. */
export interface Trigger {
	op: 'signedUrl' | 'purge' | 'cdn' | 'list' | 'upload' | 'complete' | 'delete';
	nth: number;
	phase: 'before' | 'after';
	action: Action;
	role: Role;
}

export interface SetupFile {
	role: Role;
	visibility: 'public' | 'private';
	/** Someone reads it through the CDN, which keeps that version. */
	viewed: boolean;
	/** Then it is rewritten (same size): in the same second, or two seconds later. */
	rewritten?: 'sameSecond' | 'later';
	/** Written as the run starts (not ten seconds before): a Move must wait for its second to pass. */
	fresh?: boolean;
	/** Written late in a second of the storage's clock (named cases that need it). */
	lateInSecond?: boolean;
	/** Written with the bytes (and visibility) another role holds once that is set up: a copy made before. */
	sameAs?: Role;
	/** Its size, when not the usual. */
	size?: number;
}

export interface Scenario {
	operation: Operation;
	version: 2 | 3;
	/** Copy, Move: [source, destination] per item; Upload: [key] per item. */
	items: Role[][];
	/** Copy, Move: Replace Existing File; Upload: Refuse Existing File off. */
	replace: boolean;
	dryRun: boolean;
	includeSubfolders: boolean;
	setup: SetupFile[];
	/** Version 3's Parallel Requests, when not its default: with 1, two items run at once and a third starts as one ends. */
	parallelRequests?: number;
	/** Upload: files of 5 MiB and 16 bytes, sent in two parts (Multipart Threshold and Part Size 5 MiB). */
	inParts?: boolean;
}

export interface Schedule {
	seed: number;
	/** The storage's clock minus the n8n host's, ms (hostSkew). */
	storageSkewMs: number;
	scenario: Scenario;
	cdn: CdnPolicy;
	triggers: Trigger[];
	/** A stop of the run, then a run again with no other writer and a CDN that keeps nothing (folders.ts). */
	stop?: Stop;
	/** Version 3: a 503 with Retry-After pausing the run's pool, and another writer acting during it (pauses.ts). */
	pause?: Pause;
	/** A look of the node held 2.5–3.5 s without a 503, another writer acting during the hold (holds.ts). */
	hold?: Hold;
}

/**
 * From the `nth` request of the node (any kind) on, no request is answered and the execution is
 * cancelled; the `nth` itself is carried out first ('after') or not at all ('before').
 */
export interface Stop {
	nth: number;
	phase: 'before' | 'after';
}

/** The share of schedules with a held look (holds.ts): each costs its hold's seconds. */
const HELD_LOOKS = 0.3;

function drawScenario(random: Random): Scenario {
	const operation = random.pick(['copy', 'move', 'move', 'upload', 'folderDelete'] as const);
	const file = (role: Role): SetupFile => ({
		role,
		visibility: random.chance(0.75) ? 'public' : 'private',
		viewed: random.chance(0.6),
		rewritten: random.pick([undefined, undefined, 'sameSecond', 'later'] as const),
	});
	const base = { operation, dryRun: false, includeSubfolders: true, replace: false };
	if (operation === 'folderDelete') {
		const setup = (['dirA', 'dirB', 'dirSub', 'outside'] as Role[]).map(file);
		return {
			...base,
			version: random.pick([2, 3] as const),
			items: [],
			dryRun: random.chance(0.25),
			includeSubfolders: random.chance(0.7),
			setup,
		};
	}
	const count = random.pick([1, 1, 2, 2, 3]);
	const version = count > 1 ? 3 : random.pick([2, 3] as const);
	const dstExists = random.chance(0.45);
	// Several items: one destination (they take turns), or one each.
	const destinations: Role[] = random.chance(0.5) ? ['dst', 'dst', 'dst'] : ['dst', 'dst2', 'dst3'];
	if (operation === 'upload') {
		const items = Array.from({ length: count }, (_, i): Role[] => [destinations[i]]);
		const inParts = random.chance(0.4);
		const setup = dstExists ? [file('dst')] : [];
		return { ...base, version, items, replace: random.chance(0.2), setup, ...(inParts ? { inParts } : {}) };
	}
	const sources: Role[] = ['src1', 'src2', 'src3'];
	const sameSource = count > 1 && random.chance(0.15);
	const items = Array.from({ length: count }, (_, i): Role[] => [sameSource ? 'src1' : sources[i], destinations[i]]);
	const setup = [...new Set(items.map(([source]) => source))].map(file);
	if (operation === 'move' && random.chance(0.3)) setup[0].fresh = true;
	if (dstExists) setup.push(file('dst'));
	return { ...base, version, items, replace: random.chance(0.4), setup };
}

function drawTriggers(random: Random, scenario: Scenario): Trigger[] {
	const roles = [...new Set([...scenario.items.flat(), ...scenario.setup.map((f) => f.role)])];
	if (scenario.operation === 'folderDelete') roles.push('dirNew');
	const actions: Action[] = ['rewriteSame', 'rewriteSame', 'rewriteSameOtherKind', 'rewriteOther', 'delete', 'view'];
	const triggers: Trigger[] = [];
	const fresh = scenario.setup.find((file) => file.fresh);
	if (fresh && random.chance(0.6)) {
		// A same-size rewrite right after the read of a source written moments before: the settle wait's case.
		const op = random.pick(['cdn', 'list'] as const);
		triggers.push({ op, nth: random.int(1, 2), phase: 'after', action: 'rewriteSame', role: fresh.role });
	}
	const [first] = scenario.items;
	if ((scenario.operation === 'copy' || scenario.operation === 'move') && random.chance(0.25)) {
		// A same-size file of another content type or visibility at the destination once the copy was checked, in its
		// second: only the listing before a Move's delete shows it is not the copy.
		const op = random.pick(['cdn', 'list'] as const);
		triggers.push({ op, nth: random.int(2, 4), phase: 'after', action: 'rewriteSameOtherKind', role: first[1] });
	}
	return triggers.concat(
		Array.from({ length: random.int(0, 4) }, (): Trigger => {
			const drawn = random.pick(['signedUrl', 'purge', 'cdn', 'cdn', 'list', 'list', 'upload', 'delete'] as const);
			// An upload in parts is stored by its Complete.
			const op = drawn === 'upload' && scenario.inParts && random.chance(0.7) ? 'complete' : drawn;
			const storing = scenario.operation !== 'folderDelete';
			// The storage keeping fewer bytes than the node sent (and saying so): at an upload of Copy, Move or Upload.
			const short = storing && (op === 'upload' || op === 'complete') && random.chance(0.3);
			return {
				op,
				nth: random.int(1, 3),
				phase: short ? 'after' : random.pick(['before', 'after'] as const),
				action: short ? 'shortStore' : random.pick(actions),
				role: short ? 'dst' : random.pick(roles),
			};
		}),
	);
}

/**
 * The storage's clock minus the n8n host's, from one draw: mostly within ±3 s, sometimes up to ±30 s
 * (the signature allows ±300 s). Only the answers' own dates may time the settle wait.
 */
export function hostSkew(u: number): number {
	return u < 0.7 ? Math.round((u / 0.7) * 6000 - 3000) : Math.round(((u - 0.7) / 0.3) * 60_000 - 30_000);
}

export function drawSchedule(seed: number): Schedule {
	const random = new Random(seed);
	const scenario = drawScenario(random);
	if (scenario.items.length > 2 && random.chance(0.5)) scenario.parallelRequests = 1;
	const schedule: Schedule = {
		seed,
		storageSkewMs: hostSkew(random.next()),
		scenario,
		cdn: drawCdnPolicy(random),
		triggers: drawTriggers(random, scenario),
	};
	// Drawn last, so that the schedules drawn before pauses existed stay as they were but for it.
	const roles = [...new Set(scenario.items.flat())];
	if (scenario.version === 3 && scenario.items.length > 1 && random.chance(0.6)) {
		schedule.pause = drawPause(random, roles);
		// Behind a CDN that keeps nothing, so that Copy and Move items reach their last looks (the CDN's tricks stay drawn without pauses).
		if (scenario.operation !== 'upload') schedule.cdn = QUIET_CDN;
	}
	// After the pause, for the same reason.
	if (random.chance(HELD_LOOKS)) schedule.hold = drawHold(random, scenario);
	return schedule;
}

/** A node request as the emulator saw it; `seq` orders it with the history's changes. */
export interface NodeRequest {
	seq: number;
	op: string;
	method: string;
	/** The key it names (for a listing: its prefix). */
	subject: string;
	/** A listing's answer: the files it showed. */
	listed?: string[];
	/** Its answer held (holds.ts): the seq when it left for the node, which saw nothing of the key after `seq`. */
	heldUntilSeq?: number;
}

export interface ItemOutcome {
	ok: boolean;
	json: Record<string, unknown>;
}

export interface Outcome {
	schedule: Schedule;
	keys: Record<Role, string>;
	startSeq: number;
	endSeq: number;
	events: HistoryEvent[];
	requests: NodeRequest[];
	items: ItemOutcome[];
	/** What the adversary did, in order. */
	log: string[];
	/** With a stop: the stopped run, then the run again (each with its items and its span of seqs). */
	runs?: RunOutcome[];
	/** Upload: the MD5 of each item's input. */
	inputs?: string[];
	/** When the run's pool was paused by a 503 the adversary answered (pauses.ts). */
	pauses?: PauseSpan[];
}

export interface RunOutcome {
	startSeq: number;
	endSeq: number;
	items: ItemOutcome[];
	/** Stopped before it ended: it gave no items. */
	stopped: boolean;
}

/** The keys of a schedule's roles, under its own folder. */
export function keysFor(folder: string): Record<Role, string> {
	return {
		src1: `${folder}src1.txt`,
		src2: `${folder}src2.txt`,
		src3: `${folder}src3.txt`,
		dst: `${folder}dst.txt`,
		dst2: `${folder}dst2.txt`,
		dst3: `${folder}dst3.txt`,
		dirA: `${folder}dir/a.txt`,
		dirB: `${folder}dir/b.txt`,
		dirSub: `${folder}dir/sub/c.txt`,
		outside: `${folder}dirt.txt`,
		dirNew: `${folder}dir/new.txt`,
		...Object.fromEntries(
			(['a', 'b', 'sub/c', 'd', 'new'] as const).flatMap((name) => {
				const role = name.slice(-1) === 'w' ? 'new' : name.slice(-1);
				return [
					[`f${role}`, `${folder}from/${name}.txt`],
					[`t${role}`, `${folder}to/${name}.txt`],
				];
			}),
		),
	} as Record<Role, string>;
}
