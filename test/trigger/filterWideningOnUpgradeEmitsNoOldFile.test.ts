/**
 * File Name Filter `**`: this release makes it match keys holding a line break (CHANGELOG, Unreleased); the release
 * before it did not. A state that release saved names its filter by the same text, so this release reads it as the
 * same scope. A file with a line break stored long before the upgrade, which that release's filter left out (so it
 * recorded nothing of it), is an old file: with Emit Existing Files off a wider filter records what exists and emits
 * nothing (docs/trigger.md: the files a state never recorded are emitted only with Emit Existing Files; "A file
 * stored before activation and never changed is never emitted"). It must not come as `created`.
 */
import { BUCKET } from '../node/support';
import { placeOf, scopeOf, stateOf, type ListedFile } from '../../nodes/FileStorage/trigger/state';
import { encodeState } from '../../nodes/FileStorage/trigger/stateCodec';
import { apiFor, Poller, put, useEmulator } from './support';

const emulator = useEmulator();

/** The state the release before saved: its `**.csv` never matched the key with a line break, so only `plain.csv`. */
function earlierReleaseState(recorded: ListedFile[]) {
	const scope = scopeOf({
		bucket: BUCKET.bucketName,
		region: BUCKET.region,
		prefix: 'upgrade-nl/',
		recursive: true,
		filter: '**.csv',
		keepKeys: false,
	});
	return encodeState(stateOf(recorded, false), scope, placeOf(BUCKET.bucketName, BUCKET.region));
}

describe('File Name Filter ** after an upgrade, a file with a line break stored before it', () => {
	it('is not emitted as created (the earlier release left it out; it is no new file)', async () => {
		const old = 'upgrade-nl/line\nbreak.csv';
		await put(apiFor(emulator()), old, 'stored long before');
		const trigger = new Poller(emulator, {
			folder: 'upgrade-nl',
			includeSubfolders: true,
			watchFor: ['created'],
			options: { fileNameFilter: '**.csv' },
		} as never);
		// Checks the file is there and that this release's filter watches it (a fresh baseline emits nothing).
		expect((await trigger.poll()).error).toBeUndefined();
		// The upgrade: the state the release before saved for the same settings, without a record of the old file.
		trigger.savedState = earlierReleaseState([]);
		const afterUpgrade = await trigger.changes();
		const next = await trigger.changes();
		expect({ afterUpgrade, next }).toEqual({ afterUpgrade: [], next: [] });
	});
});
