/**
 * Folder → Delete items of one version-3 run go side by side (docs/api-choices.md, "What became of a failed write"):
 * the only items beside a Folder → Delete are Folder → Deletes (one operation per run), and their only writes are
 * deletes, so a delete of one that may still land, known only after the other started, removes what the other
 * deletes too: nothing is stored in the folder by it. Through n8n-core's engine over real HTTP: item 0 empties
 * `sub/` of a folder, item 1 the whole folder; a gateway holds the first delete of `sub/x.txt` until item 1 is
 * deleting, answers it 504 and hands it to the service (at once, or once the run has ended).
 */
import { useLateWriteGateway } from './lateWriteGateway';
import { eventually } from './proxy';
import { credentialsFor, putText, runFileStorage, storedText, useEmulator } from './support';

const emulator = useEmulator();

type Landing = 'during the run' | 'after the run';

const state = { folder: '', landing: 'after the run' as Landing, held: 0, otherDeleting: false, answered: false };
const late = { statuses: [] as number[] };
let answerHeld: (() => void) | undefined;
let handOnHeld: () => void = () => undefined;
let runEnded: () => void = () => undefined;

/** The held delete gets its 504 once item 1 is deleting too (and, during the run, reaches the service then). */
function answerOnceBothStarted() {
	if (!answerHeld || !state.otherDeleting || state.answered) return;
	state.answered = true;
	answerHeld();
	if (state.landing === 'during the run') handOnHeld();
}

const gatewayUrl = useLateWriteGateway(emulator, {
	holds: (req) => {
		const url = decodeURIComponent(req.url ?? '');
		if (req.method !== 'DELETE') return false;
		if (url.includes(`key=${state.folder}y.txt`)) state.otherDeleting = true;
		const held = url.includes(`key=${state.folder}sub/x.txt`) && state.held === 0;
		if (held) state.held++;
		answerOnceBothStarted();
		return held;
	},
	answers: (answer) => {
		answerHeld = answer;
		answerOnceBothStarted();
	},
	later: (handOn) => {
		handOnHeld = handOn;
		if (state.landing === 'after the run') void new Promise<void>((resolve) => (runEnded = resolve)).then(handOn);
	},
	onAnswer: ({ status, late: isLate }) => {
		if (isLate) late.statuses.push(status);
	},
});

afterAll(() => runEnded());

const paired = (item: { pairedItem?: unknown }) => (item.pairedItem as { item: number } | undefined)?.item;

describe('Folder → Delete in version 3, two items emptying overlapping folders side by side', () => {
	it.each(['during the run', 'after the run'] as Landing[])(
		"a file's delete answered 504 after both started, carried out %s: the folder is emptied, every file reported deleted is gone, nothing outside is touched",
		async (landing) => {
			const folder = `side-by-side-${landing.replace(/ /g, '-')}/`;
			const outside = `${folder.slice(0, -1)}-kept/z.txt`;
			for (const key of [`${folder}y.txt`, `${folder}sub/x.txt`, outside]) await putText(emulator(), key, key, 'setup');
			Object.assign(state, { folder, landing, held: 0, otherDeleting: false, answered: false });
			late.statuses = [];
			answerHeld = undefined;
			const result = await runFileStorage(
				emulator(),
				{ resource: 'folder', operation: 'delete', folder: '={{ $json.folder }}', options: { maxRetries: 0 } },
				{
					typeVersion: 3,
					continueOnFail: true,
					credentials: credentialsFor(emulator(), { baseUrl: gatewayUrl() }),
					items: [{ json: { folder: `${folder}sub/` } }, { json: { folder } }],
				},
			);
			runEnded();
			expect(await eventually(() => late.statuses.length > 0, 10_000)).toBe(true);
			expect({ held: state.held, answered: state.answered }).toEqual({ held: 1, answered: true });
			// The item whose delete got the 504 says it failed; the folder ends empty, whatever order things landed in.
			const failed = result.items.filter((item) => item.json.error !== undefined);
			expect(failed.length).toBeGreaterThanOrEqual(1);
			expect(await storedText(emulator(), `${folder}y.txt`)).toBeUndefined();
			expect(await storedText(emulator(), `${folder}sub/x.txt`)).toBeUndefined();
			expect(await storedText(emulator(), outside)).toBe(outside);
			for (const item of result.items.filter((one) => one.json.deleted === true)) {
				expect({
					key: item.json.key,
					item: paired(item),
					stored: await storedText(emulator(), String(item.json.key)),
				}).toEqual({ key: item.json.key, item: paired(item), stored: undefined });
			}
		},
		60_000,
	);
});
