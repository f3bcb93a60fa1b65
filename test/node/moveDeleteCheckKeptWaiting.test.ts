/**
 * Move: the check before a repeat of its source's delete is held to the rule of every look
 * (transport/looks.ts): a check during which the service asked the node to wait is no proof, and is
 * asked again. When every check waits, the delete is not sent again: the source is kept and the item
 * fails saying the service kept asking to wait, and how to finish by hand. Through n8n-core's engine
 * over real HTTP to the emulator; the 503s come from its hooks.
 */
import type { HookCall } from '../emulator/history';
import { BUCKET, HERE, byKey, randomFile, runFileStorage, useEmulator } from './support';

const emulator = useEmulator();

afterEach(() => emulator().adversary.setHooks(undefined));

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms).unref());

const UNAVAILABLE = {
	status: 503,
	headers: { 'Content-Type': 'application/json', 'Retry-After': '1' },
	body: JSON.stringify({ error: 'Service unavailable' }),
};

describe.each([3, 2])('Move (node version %i)', (typeVersion) => {
	it('keeps its source when the service asks to wait during every check before the delete is sent again', async () => {
		const source = `move-check-waits-${typeVersion}/ledger.txt`;
		const destination = `move-check-waits-${typeVersion}/archive/ledger.txt`;
		const bytes = randomFile(1000);
		await emulator().adversary.put(HERE, source, bytes, {
			visibility: 'private',
			contentType: 'text/plain',
			writer: 'setup',
		});
		// Sources written moments ago are read only once their listed second has passed (moveSource.ts).
		await sleep(4000);
		const events: string[] = [];
		emulator().adversary.setHooks({
			before: async (call: HookCall) => {
				const key = call.query.get('key') ?? call.query.get('prefix');
				if (call.op === 'delete' && key === source) {
					events.push(events.includes('first delete 503') ? 'source delete repeated' : 'first delete 503');
					return events.length === 1 ? UNAVAILABLE : undefined;
				}
				if (call.op !== 'list' || key !== destination || !events.includes('first delete 503')) return undefined;
				// Every check's destination listing is first asked to wait, then answered.
				const asked = events.filter((event) => event.startsWith('destination listing')).length;
				events.push(asked % 2 === 0 ? 'destination listing 503' : 'destination listing answered');
				return asked % 2 === 0 ? UNAVAILABLE : undefined;
			},
		});
		const result = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'move', fileKey: byKey(source), destinationKey: destination },
			{ typeVersion, continueOnFail: true },
		);
		emulator().adversary.setHooks(undefined);
		expect(events.filter((event) => event === 'destination listing 503')).toHaveLength(3);
		expect(events).not.toContain('source delete repeated');
		const left = await emulator().readObject(BUCKET.bucketName, BUCKET.region, source);
		expect(left?.body.equals(bytes)).toBe(true);
		expect((await emulator().readObject(BUCKET.bucketName, BUCKET.region, destination))?.body.equals(bytes)).toBe(true);
		const error = `${String(result.items[0]?.json.error)} ${String(result.items[0]?.json.description ?? '')}`;
		expect(error).toMatch(/was not deleted: the service asked the node to wait during each of 3 checks/);
		expect(error).toMatch(/Both files exist now.*File → Delete/);
	}, 60_000);
});
