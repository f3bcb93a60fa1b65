/**
 * Marks of a kept answer that name no hit. RFC 9111 §5.1: an Age header, whatever its value, means a
 * cache served the answer (a cache whose clock is off computes a negative Age, a broken one sends an
 * empty value). RFC 9211: a `collapsed` miss was answered with another request's fetch, which may have
 * begun before the purge. Either answer is never proof of the stored version (docs/reliability.md,
 * "Destructive steps act on proof"), so Move never deletes a newer version on it.
 */
import { storeInOneSecond, useFakeCdn } from './fakeCdn';
import { byKey, runFileStorage, storedText, useEmulator } from './support';

const emulator = useEmulator({ cdnCacheSeconds: 600 });
const cdn = useFakeCdn();

const older = 'STATUS: PENDING';
const newer = 'STATUS: SUCCESS';

beforeEach(() => emulator().setFaults([]));

/** A same-size rewrite in one second; the CDN answers the Move's read with the earlier bytes and `headers`. */
async function moveOverKeptAnswer(folder: string, headers: Record<string, string>): Promise<void> {
	const key = `${folder}/move.txt`;
	const destination = `${folder}/moved.txt`;
	const lastModified = await storeInOneSecond(emulator(), key, newer, { settleMs: 6500 });
	emulator().setFaults([{ operation: 'signedUrl', rewrite: { url: cdn().urlOf(key) }, nth: [1] }]);
	cdn().answer = () => ({ headers: { 'Last-Modified': lastModified, ...headers }, body: older });
	const result = await runFileStorage(emulator(), {
		resource: 'file',
		operation: 'move',
		fileKey: byKey(key),
		destinationKey: destination,
		options: { replace: true },
	});
	expect(cdn().requests.length).toBeGreaterThan(0);
	expect([await storedText(emulator(), key), await storedText(emulator(), destination)]).toContain(newer);
	expect(result.error).toBeDefined();
}

it.each(['-1', ''])(
	'Move of a public file rewritten at the same size: a kept answer whose Age is %p (present, not a valid number) never deletes the newer version',
	async (age) => await moveOverKeptAnswer(`malformedAge${age === '' ? 'Empty' : 'Negative'}`, { Age: age }),
	60_000,
);

it('Move of a public file rewritten at the same size: a miss collapsed into another request’s fetch (Cache-Status collapsed, Age: 0) never deletes the newer version', async () => {
	await moveOverKeptAnswer('collapsedMiss', {
		Age: '0',
		'Cache-Status': 'ExampleCDN; fwd=uri-miss; fwd-status=200; collapsed',
	});
}, 60_000);
