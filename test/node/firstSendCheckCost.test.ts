/**
 * What the check of a destructive first send in its pool slot costs (docs/api-choices.md, "Another
 * writer outside the run"): it is asked only when the send had to wait for its slot, so a version-3
 * run whose requests never wait sends no request more than version 2 (no pool) for the same work.
 * Asked always, it would cost a Move two listings more (source and destination) and an upload in
 * parts with Refuse Existing File one existence check more. Through n8n-core's engine over real
 * HTTP to the emulator, counting the emulator's requests.
 */
import { MIB, byKey, fileItem, putText, randomFile, runFileStorage, useEmulator } from './support';

const emulator = useEmulator();

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms).unref());

async function requestsOf(run: () => Promise<unknown>): Promise<Record<string, number>> {
	emulator().resetStats();
	await run();
	return { ...emulator().stats().requests } as Record<string, number>;
}

describe('the check of a destructive first send, in its slot only after a wait', () => {
	it('costs a Move in version 3 no listing more than in version 2 when nothing waits', async () => {
		await putText(emulator(), 'cost/v2.txt', 'a ledger', 'setup');
		await putText(emulator(), 'cost/v3.txt', 'a ledger', 'setup');
		// Sources written moments ago are read only once their listed second has passed.
		await sleep(4000);
		const move = async (typeVersion: number) =>
			await requestsOf(
				async () =>
					await runFileStorage(
						emulator(),
						{
							resource: 'file',
							operation: 'move',
							fileKey: byKey(`cost/v${typeVersion}.txt`),
							destinationKey: `cost/moved/v${typeVersion}.txt`,
						},
						{ typeVersion },
					),
			);
		const [v2, v3] = [await move(2), await move(3)];
		// The source's record and the copy's (its check), then both again right before the delete: four, in either version.
		expect({ v2: v2.list, v3: v3.list, deletes: v3.delete }).toEqual({ v2: 4, v3: 4, deletes: 1 });
	}, 60_000);

	it('costs an upload in parts with Refuse Existing File in version 3 no existence check more than in version 2', async () => {
		const upload = async (typeVersion: number) =>
			await requestsOf(
				async () =>
					await runFileStorage(
						emulator(),
						{
							resource: 'file',
							operation: 'upload',
							key: `cost/upload-v${typeVersion}.bin`,
							options: { refuseExisting: true, multipartThreshold: 5, partSize: 5 },
						},
						{ items: [fileItem(randomFile(11 * MIB), 'upload.bin', 'application/octet-stream')], typeVersion },
					),
			);
		const [v2, v3] = [await upload(2), await upload(3)];
		// Before the parts, and again right before Complete: two, in either version.
		expect({ v2: v2.signedUrl, v3: v3.signedUrl, completes: v3.complete }).toEqual({ v2: 2, v3: 2, completes: 1 });
	}, 60_000);
});
