/**
 * Move: a delete of the source answered 503 is sent again only after the source and the destination
 * are listed again in its slot. docs/api-choices.md ("A delete sent again") promises that "the check
 * and the delete follow each other with no wait between them". The check lists the source first,
 * then the destination: when the destination's listing is answered 503 with a Retry-After, the check
 * waits it out after the source was listed, and a newer source stored in that wait must not be
 * deleted by the repeat. Through n8n-core's engine over real HTTP to the emulator; the 503s and the
 * other writer come from its hooks.
 */
import type { HookCall } from '../emulator/history';
import { BUCKET, HERE, byKey, randomFile, runFileStorage, useEmulator } from './support';

const emulator = useEmulator();
const NEWER = Buffer.from('the newer version of the ledger, stored by the accountant');

afterEach(() => emulator().adversary.setHooks(undefined));

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms).unref());

async function put(key: string, body: Buffer, writer: string) {
	await emulator().adversary.put(HERE, key, body, { visibility: 'private', contentType: 'text/plain', writer });
}

function unavailable(retryAfter: string) {
	return {
		status: 503,
		headers: { 'Content-Type': 'application/json', 'Retry-After': retryAfter },
		body: JSON.stringify({ error: 'Service unavailable' }),
	};
}

describe.each([3, 2])('Move (node version %i)', (typeVersion) => {
	it("never repeats its source's delete onto a newer version stored while the repeat's check waited", async () => {
		const source = `move-repeat-check-${typeVersion}/ledger.txt`;
		const destination = `move-repeat-check-${typeVersion}/archive/ledger.txt`;
		await put(source, randomFile(1000), 'setup');
		// Sources written moments ago are read only once their listed second has passed (moveSource.ts).
		await sleep(4000);
		const events: string[] = [];
		emulator().adversary.setHooks({
			before: async (call: HookCall) => {
				const key = call.query.get('key') ?? call.query.get('prefix');
				if (call.op === 'delete' && key === source) {
					if (!events.includes('first delete 503')) {
						events.push('first delete 503');
						return unavailable('1');
					}
					events.push('source delete repeated');
					return undefined;
				}
				const checking = events.includes('first delete 503') && !events.includes('destination listing 503');
				if (call.op === 'list' && key === destination && checking) {
					events.push('destination listing 503');
					// The accountant stores a newer version of the source a second later, while the check waits.
					setTimeout(() => void put(source, NEWER, 'accountant').then(() => events.push('newer source stored')), 1000);
					return unavailable('3');
				}
				return undefined;
			},
		});
		const result = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'move', fileKey: byKey(source), destinationKey: destination },
			{ typeVersion, continueOnFail: true },
		);
		emulator().adversary.setHooks(undefined);
		const at = (event: string) => events.indexOf(event);
		expect(at('destination listing 503')).toBeGreaterThan(at('first delete 503'));
		expect(at('newer source stored')).toBeGreaterThan(at('destination listing 503'));
		expect(at('source delete repeated') === -1 || at('source delete repeated') > at('newer source stored')).toBe(true);
		const left = (await emulator().readObject(BUCKET.bucketName, BUCKET.region, source))?.body;
		expect(left?.equals(NEWER) ? 'the newer version kept' : 'the newer version deleted').toBe('the newer version kept');
		expect(result.items[0]?.json.error).toBeDefined();
	}, 60_000);
});
