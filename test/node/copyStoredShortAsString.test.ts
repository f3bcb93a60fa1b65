/**
 * The check of a copy reads the size the copy's upload answer names as the listing's is read: a number, or a string
 * of digits (some gateways send numbers as strings; Upload reads it so, upload/storedAll.ts). docs/reliability.md,
 * "The check of a copy": "The upload's answer says another size than the listing, which shows the bytes sent | Keep;
 * error". Here the copy's upload is stored short and its answer says so, as a string of digits; another writer then
 * stores a file of the source's size at the destination before the check lists it. Through n8n-core's engine over
 * real HTTP to the emulator (whose CDN sends no ETag, so the check has the size only); the faulty storage and the
 * other writer act from its hooks.
 */
import type { HookCall } from '../emulator/history';
import { HERE, byKey, putText, runFileStorage, storedText, useEmulator } from './support';

const emulator = useEmulator();

afterEach(() => emulator().adversary.setHooks(undefined));

const SOURCE = 'the quarterly report, final';
/** Another writer's file of the source's size (27 bytes each). */
const OTHER = 'another writer, same size!!';

/** The copy's upload keeps 3 bytes short, its answer says so in `spelling`; then another writer stores OTHER there. */
function shortCopyThenOtherWriter(key: string, spelling: 'number' | 'string') {
	const state = { struck: false };
	emulator().adversary.setHooks({
		after: async (call: HookCall, reply: { status: number; body: unknown }) => {
			if (state.struck || call.op !== 'upload' || call.query.get('key') !== key || reply.status !== 200) return;
			state.struck = true;
			const current = await emulator().adversary.current(key);
			if (!current) return;
			const body = current.body.subarray(0, current.size - 3);
			await emulator().adversary.put(HERE, key, body, {
				visibility: current.visibility as 'private',
				contentType: current.contentType,
				writer: 'client-short',
			});
			const data = (reply.body as { data?: { size?: number | string } }).data;
			if (data) data.size = spelling === 'string' ? String(body.length) : body.length;
			await putText(emulator(), key, OTHER, 'app');
		},
	});
	return state;
}

describe('Copy whose upload answer says, as a string of digits, that fewer bytes were stored than sent', () => {
	it.each([
		['number', 1],
		['string', 1],
		['string', 2],
		['string', 3],
	] as const)(
		'(size spelled as a %s) never reports another writer’s same-size file as its copy (node version %i)',
		async (spelling, typeVersion) => {
			const from = `copy-short-${spelling}-v${typeVersion}/source.txt`;
			const to = `copy-short-${spelling}-v${typeVersion}/copy.txt`;
			await putText(emulator(), from, SOURCE, 'setup');
			const state = shortCopyThenOtherWriter(to, spelling);
			const result = await runFileStorage(
				emulator(),
				{ resource: 'file', operation: 'copy', fileKey: byKey(from), destinationKey: to, options: {} },
				{ typeVersion, continueOnFail: true },
			);
			emulator().adversary.setHooks(undefined);
			expect(state.struck).toBe(true);
			// The file at the destination is the other writer's, not this copy.
			expect(await storedText(emulator(), to)).toBe(OTHER);
			const json = result.items[0]?.json ?? {};
			expect({ error: json.error !== undefined, checked: json.checked }).toEqual({ error: true, checked: undefined });
			expect(String(json.error)).toContain(
				`the service stored ${SOURCE.length - 3} bytes, but ${SOURCE.length} were sent`,
			);
		},
		60_000,
	);
});
