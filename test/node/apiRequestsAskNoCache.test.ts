/**
 * Every GET of the API asks caches between n8n and the API not to answer from a copy
 * (`Cache-Control: no-cache`, `Pragma: no-cache`; docs/api-choices.md, "API answers a cache kept"):
 * a gateway that honours them fetches the service's answer now. The headers are not signed, so the
 * emulator's strict signature check passes as before. Through n8n-core's engine over real HTTP.
 */
import type { HookCall } from '../emulator/history';
import { byKey, putText, runFileStorage, useEmulator } from './support';

const emulator = useEmulator();

afterEach(() => emulator().adversary.setHooks(undefined));

describe("The API's GET requests ask caches for the service's answer", () => {
	it('a listing and a signed-link call carry Cache-Control: no-cache and Pragma: no-cache, and are answered', async () => {
		await putText(emulator(), 'no-cache/notes.txt', 'some notes', 'setup');
		const seen: Array<{ op: string; method: string; cacheControl?: string; pragma?: string }> = [];
		emulator().adversary.setHooks({
			before: async (call: HookCall) => {
				const header = (name: string) => call.headers[name] as string | undefined;
				seen.push({
					op: call.op,
					method: call.method,
					cacheControl: header('cache-control'),
					pragma: header('pragma'),
				});
				return await Promise.resolve(undefined);
			},
		});
		const listed = await runFileStorage(emulator(), {
			resource: 'bucket',
			operation: 'listContents',
			prefix: 'no-cache/',
		});
		expect(listed.error).toBeUndefined();
		const downloaded = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'download',
			fileKey: byKey('no-cache/notes.txt'),
		});
		expect(downloaded.error).toBeUndefined();
		// A link the service hands out (op 'cdn') is the CDN's to cache: its answers are judged by files/proof.ts.
		const gets = seen.filter((call) => call.method === 'GET' && call.op !== 'cdn');
		expect(gets.map((call) => call.op)).toEqual(expect.arrayContaining(['list', 'signedUrl']));
		for (const call of gets)
			expect(call).toEqual(expect.objectContaining({ cacheControl: 'no-cache', pragma: 'no-cache' }));
	}, 30_000);
});
