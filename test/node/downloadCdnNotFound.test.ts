/**
 * Only the API's own 404 (its JSON error) shows a file is not there (transport/outcome.ts,
 * files/answerMeaning.ts). A CDN or a proxy in front of it answering a 404 page for a file the
 * service stores (an edge not yet holding a new file, a misrouted path) says nothing of the file:
 * File → Download asks the service, as Copy's source read does, before it says "not found".
 * Through n8n-core's engine over real HTTP to the emulator, whose CDN and API answer from hooks.
 */
import type { HookCall, HookAnswer } from '../emulator/history';
import { apiFor, put } from '../trigger/support';
import { downloadByKey, HERE, useEmulator } from './support';

const emulator = useEmulator();

afterEach(() => emulator().adversary.setHooks(undefined));

const NOT_FOUND_PAGE: HookAnswer = {
	status: 404,
	headers: { 'Content-Type': 'text/html' },
	body: '<html><body><h1>404 Not Found</h1><hr>nginx</body></html>',
};

const download = async (key: string) => await downloadByKey(emulator(), key);

describe('File → Download: a 404 page that is not the API’s own says nothing of the file', () => {
	it.each(['private', 'public'] as const)(
		'a %s file the service stores, its CDN answering a 404 page: the error says the CDN answered 404 for a stored file',
		async (visibility) => {
			const key = `dl-cdn-404/${visibility}.txt`;
			await put(apiFor(emulator()), key, 'stored', { visibility });
			const cdnReads: string[] = [];
			emulator().adversary.setHooks({
				before: async (call: HookCall) => {
					if (call.op !== 'cdn') return undefined;
					cdnReads.push(call.path);
					return await Promise.resolve(NOT_FOUND_PAGE);
				},
			});
			const result = await download(key);
			expect(cdnReads.length).toBeGreaterThan(0);
			expect(result.items.filter((item) => item.binary)).toEqual([]);
			expect(result.error?.message).not.toMatch(/not found in bucket/);
			expect(result.error?.message).toMatch(/CDN answered HTTP 404 for a file the service stores/);
			expect(result.error?.description).toMatch(/Run the node again.*CDN/);
		},
	);

	it('a file deleted between its link and its read, the service’s own 404 confirming it, is not found', async () => {
		const key = 'dl-cdn-404/deleted.txt';
		await put(apiFor(emulator()), key, 'stored', { visibility: 'private' });
		emulator().adversary.setHooks({
			before: async (call: HookCall) => {
				if (call.op !== 'cdn') return undefined;
				await emulator().adversary.remove(HERE, key, 'another workflow');
				return NOT_FOUND_PAGE;
			},
		});
		const result = await download(key);
		expect(result.error?.message).toMatch(/^The file 'dl-cdn-404\/deleted\.txt' was not found in bucket/);
	});

	it('a proxy’s 404 page answering the file’s signed-link request does not make the file not found', async () => {
		const key = 'dl-cdn-404/proxied.txt';
		await put(apiFor(emulator()), key, 'stored', { visibility: 'private' });
		emulator().adversary.setHooks({
			before: async (call: HookCall) => await Promise.resolve(call.op === 'signedUrl' ? NOT_FOUND_PAGE : undefined),
		});
		const result = await download(key);
		expect(result.error).toBeDefined();
		expect(result.error?.message).not.toMatch(/was not found in bucket/);
		expect(`${result.error?.message} ${result.error?.description}`).toMatch(/404/);
	});

	it('a CDN’s 404 page while the service cannot be asked: the error says the service could not be asked, never that it shows the file', async () => {
		const key = 'dl-cdn-404/unasked.txt';
		await put(apiFor(emulator()), key, 'stored', { visibility: 'private' });
		let links = 0;
		emulator().adversary.setHooks({
			before: async (call: HookCall) => {
				if (call.op === 'cdn') return NOT_FOUND_PAGE;
				// The link of the read is given; every later request for it (asking the service) fails.
				if (call.op === 'signedUrl' && ++links > 1) {
					return { status: 503, headers: { 'Content-Type': 'text/html' }, body: '<html>Service Unavailable</html>' };
				}
				return await Promise.resolve(undefined);
			},
		});
		const result = await download(key);
		expect(links).toBeGreaterThan(1);
		expect(result.items.filter((item) => item.binary)).toEqual([]);
		expect(result.error?.message).not.toMatch(/not found in bucket|for a file the service stores/);
		expect(result.error?.message).toMatch(
			/CDN answered HTTP 404, and asking the service whether it still stores the file failed/,
		);
		expect(result.error?.description).not.toMatch(/service's own answer shows the file/);
	});
});
