/**
 * A release before this one, watching a folder with Include Subfolders off through a service (or a gateway) whose
 * one-level listing also names deeper files, watched those deeper files too, and held back the change of one whose
 * download failed. This release watches only the folder's own files. docs/trigger.md: "A held-back change is never
 * dropped", and, for a scope that leaves its file out and comes back, "kept aside, it comes once, with its bytes".
 * Turning Include Subfolders on after the upgrade must emit that held update once.
 */
import { ScriptedFolder, startListServer, type ListServer } from '../node/listServer';
import { fingerprint, keyHash, stateOf, type WatchState } from '../../nodes/FileStorage/trigger/state';
import { listed, savedForFlatInbox } from './flatInboxState';
import { Poller } from './support';

let server: ListServer | undefined;
afterEach(async () => await server?.stop());

const DEEPER = 'inbox/archive/old.txt';
const NEW_BYTES = 'new bytes';

/**
 * The state the earlier release saved (File Created and File Updated): both files recorded as they were, and the
 * update of the deeper one (to NEW_BYTES) held back after one failed download.
 */
function earlierReleaseState() {
	const state: WatchState = stateOf([listed('inbox/a.txt'), listed(DEEPER)], false);
	const update = listed(DEEPER, NEW_BYTES.length);
	const held = { event: 'updated' as const, file: update };
	state.failures = new Map([[keyHash(DEEPER), { fingerprint: fingerprint(update), attempts: 1, held }]]);
	return savedForFlatInbox(state, false);
}

describe('a held change of a deeper file an earlier release watched with Include Subfolders off', () => {
	it('comes once, with its bytes, when Include Subfolders is turned on', async () => {
		const folder = new ScriptedFolder('inbox/', ['a.txt']);
		folder.put('archive/old.txt', NEW_BYTES.length);
		const download = () => ({ status: 200, body: NEW_BYTES });
		server = await startListServer(folder.answer, download, folder.exists);
		const trigger = new Poller(server, {
			folder: 'inbox',
			includeSubfolders: false,
			watchFor: ['created', 'updated'],
			options: { downloadFile: true },
		} as never);
		expect((await trigger.poll()).error).toBeUndefined();
		// The upgrade: the state the earlier release saved, with the deeper file's update held back.
		trigger.savedState = earlierReleaseState();
		const upgraded = await trigger.changes();
		const widened: Array<[string, string]> = [];
		const withBytes: boolean[] = [];
		for (let poll = 0; poll < 3; poll++) {
			const result = await trigger.poll({ parameters: { includeSubfolders: true } as never });
			expect(result.error).toBeUndefined();
			for (const item of result.items) {
				widened.push([String(item.json.event), String(item.json.key)]);
				withBytes.push(item.binary?.data !== undefined);
			}
		}
		expect({ upgraded, widened, withBytes }).toEqual({
			upgraded: [],
			widened: [['updated', DEEPER]],
			withBytes: [true],
		});
	});
});
