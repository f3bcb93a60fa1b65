/**
 * File → Move deletes its source only on proof that the destination holds the source's bytes: with no
 * MD5 ETag from the CDN, the copy is read back through its link and hashed (files/readBack.ts). A file's
 * CDN location names the access id and the key, not the bucket (spec §3.9), so that read may be answered
 * with another bucket's file at the destination's key (the emulator's CDN answers a key from the first
 * bucket holding it). Here a third bucket holds, at the destination's key, an older copy of the source's
 * bytes (written seconds before: another second than the destination's record), and another writer
 * replaces the new copy at the same size right after its upload. The read-back must not take the third
 * bucket's file for the copy: the source must stay.
 */
import type { HookCall } from '../emulator/history';
import { BUCKET, byKey, runFileStorage, useEmulator } from './support';

const THIRD = { name: 'first-bucket', region: 'eu-west-1' };
const HERE = { name: BUCKET.bucketName, region: BUCKET.region };
// The third bucket first: the emulator's CDN answers a key from the first bucket holding it.
const emulator = useEmulator({ buckets: [THIRD, HERE] });
const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));
const text = async (where: typeof HERE, key: string) =>
	(await emulator().readObject(where.name, where.region, key))?.body.toString();

afterEach(() => emulator().adversary.setHooks(undefined));

describe('File → Move read-back of its copy when another bucket holds the destination’s key', () => {
	it.each(['private', 'public'] as const)(
		'(%s) a copy replaced at the same size after its upload is never proved by the other bucket’s file: the source stays',
		async (visibility) => {
			const source = `rb-other-${visibility}/report.txt`;
			const destination = `rb-other-${visibility}-to/report.txt`;
			const options = { visibility, contentType: 'text/plain', writer: 'setup' };
			// An older copy of the same bytes at the destination's key in the third bucket (a backup, say).
			await emulator().adversary.put(THIRD, destination, Buffer.from('AAAA the only report'), options);
			await emulator().adversary.put(HERE, source, Buffer.from('AAAA the only report'), options);
			await sleep(5500);
			let struck = false;
			emulator().adversary.setHooks({
				after: async (call: HookCall) => {
					if (call.op !== 'upload' || call.query.get('key') !== destination || struck) return;
					if (call.query.get('bucket_name') !== HERE.name) return;
					struck = true;
					await emulator().adversary.put(HERE, destination, Buffer.from('BBBB other writer!!!'), {
						...options,
						writer: 'other',
					});
				},
			});
			const result = await runFileStorage(
				emulator(),
				{
					resource: 'file',
					operation: 'move',
					fileKey: byKey(source),
					destinationKey: destination,
				},
				{ continueOnFail: true },
			);
			expect(struck).toBe(true);
			expect(await text(HERE, destination)).toBe('BBBB other writer!!!');
			// The destination holds another writer's bytes: the source is the only copy of the report in this bucket.
			expect({ source: await text(HERE, source), output: result.items[0]?.json }).toMatchObject({
				source: 'AAAA the only report',
			});
		},
		40_000,
	);
});
