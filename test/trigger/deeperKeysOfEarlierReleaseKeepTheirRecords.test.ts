/**
 * A release before this one, watching a folder with Include Subfolders off through a service (or a gateway) whose
 * one-level listing also names deeper files, recorded and emitted those deeper files. This release watches only the
 * folder's own files and forgets such records, never reporting them deleted (CHANGELOG, Unreleased). But a record
 * forgotten is a file the trigger no longer knows it emitted: docs/trigger.md, Emit Existing Files, "A file the old
 * state recorded in the same bucket and region (a folder or filter widened, Include Subfolders turned on) keeps its
 * record: it is not emitted again". Turning Include Subfolders on must not emit the deeper file a second time.
 */
import { ScriptedFolder, startListServer, type ListServer } from '../node/listServer';
import { stateOf } from '../../nodes/FileStorage/trigger/state';
import { listed, savedForFlatInbox } from './flatInboxState';
import { Poller } from './support';

let server: ListServer | undefined;
afterEach(async () => await server?.stop());

/** The state the earlier release saved: both files the flat listing named, recorded and keyed (File Deleted). */
const earlierReleaseState = (keys: string[]) =>
	savedForFlatInbox(
		stateOf(
			keys.map((key) => listed(key)),
			true,
		),
		true,
	);

describe('deeper files an earlier release recorded with Include Subfolders off', () => {
	it('are not reported deleted, nor emitted again as created when Include Subfolders is turned on', async () => {
		const folder = new ScriptedFolder('inbox/', ['a.txt', 'archive/old.txt']);
		server = await startListServer(folder.answer, undefined, folder.exists);
		const trigger = new Poller(server, {
			folder: 'inbox',
			includeSubfolders: false,
			watchFor: ['created', 'deleted'],
			options: { emitExistingFiles: true },
		} as never);
		expect((await trigger.poll()).error).toBeUndefined();
		// The upgrade: the state the earlier release saved, which recorded (and had emitted) the deeper file too.
		trigger.savedState = earlierReleaseState(['inbox/a.txt', 'inbox/archive/old.txt']);
		const upgraded = await trigger.changes();
		expect(upgraded).toEqual([]);
		// Include Subfolders on: the deeper file was recorded (and emitted) before, so it is no new file.
		const widened = await trigger.changes({ parameters: { includeSubfolders: true } as never });
		const next = await trigger.changes({ parameters: { includeSubfolders: true } as never });
		expect({ upgraded, widened, next }).toEqual({ upgraded: [], widened: [], next: [] });
	});
});
