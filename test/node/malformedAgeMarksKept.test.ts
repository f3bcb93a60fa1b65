/**
 * RFC 9111 §5.1: the presence of an Age header means the answer was not generated or validated by the
 * origin for this request: a cache served it. A cache whose clock is off can compute a negative Age,
 * and a broken one can send an empty value; either way the header says "kept". docs/reliability.md
 * ("Destructive steps act on proof") has a cache mark as "an Age (0 included)": an answer carrying
 * one is never proof of the stored version, so Move never deletes a newer version on it.
 */
import { useFakeCdn } from './fakeCdn';
import { byKey, runFileStorage, storedText, uploadWithNode, useEmulator } from './support';

const emulator = useEmulator({ cdnCacheSeconds: 600 });
const cdn = useFakeCdn();

const older = 'STATUS: PENDING';
const newer = 'STATUS: SUCCESS';

/** Stores `text` publicly within one wall-clock second, waits past it and the clocks' margin, gives it as an HTTP date. */
async function storeInOneSecond(key: string, text: string): Promise<string> {
	for (;;) {
		const before = Math.floor(Date.now() / 1000);
		await uploadWithNode(emulator(), key, text);
		if (Math.floor(Date.now() / 1000) !== before) continue;
		await new Promise((resolve) => setTimeout(resolve, 6500));
		return new Date(before * 1000).toUTCString();
	}
}

beforeEach(() => emulator().setFaults([]));

it.each(['-1', ''])(
	'Move of a public file rewritten at the same size: a kept answer whose Age is %p (present, not a valid number) never deletes the newer version',
	async (age) => {
		const key = `malformedAge${age === '' ? 'Empty' : 'Negative'}/move.txt`;
		const destination = `malformedAge${age === '' ? 'Empty' : 'Negative'}/moved.txt`;
		const lastModified = await storeInOneSecond(key, newer);
		emulator().setFaults([{ operation: 'signedUrl', rewrite: { url: cdn().urlOf(key) }, nth: [1] }]);
		cdn().answer = () => ({ headers: { 'Last-Modified': lastModified, Age: age }, body: older });
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
	},
	60_000,
);
