/**
 * The API's own answers a gateway cache kept are refused (docs/api-choices.md, "API answers a cache
 * kept"), as they may be of an earlier moment: an existence check answered with a kept 404 would
 * let Upload with Refuse Existing File replace a file another writer stored since. nginx, the most
 * common gateway, never sends an Age; its cache status is exposed in a header of the operator's
 * choosing, `X-Proxy-Cache` being the one its guides name besides X-Cache and X-Cache-Status. A
 * kept answer marked so is a kept answer. Through n8n-core's engine over real HTTP: a caching
 * gateway in front of the emulator.
 */
import { runNode } from '../harness';
import { useCachingGateway } from './cachingGateway';
import { BUCKET, credentialsFor, fileItem, putText, storedText, useEmulator } from './support';

const emulator = useEmulator();
const read = async (key: string) => await storedText(emulator(), key);

const put = async (key: string, text: string, writer: string) => await putText(emulator(), key, text, writer);

/** nginx with `add_header X-Proxy-Cache $upstream_cache_status`: no Age, ever. */
const nginx = useCachingGateway(emulator, /^\/api\/v1\/files\/(list|contents|signed-url)$/, {
	hit: () => ({ 'X-Proxy-Cache': 'HIT' }),
	miss: { 'X-Proxy-Cache': 'MISS' },
});

describe('Upload with Refuse Existing File behind an nginx cache', () => {
	it('the existence check answered with a 404 the gateway kept (X-Proxy-Cache: HIT): a file another writer stored since is not replaced', async () => {
		const key = 'gw-nginx-refuse/contract.txt';
		const upload = (text: string) =>
			runNode({
				credentials: credentialsFor(emulator(), { baseUrl: nginx().url }),
				continueOnFail: true,
				items: [fileItem(Buffer.from(text), 'contract.txt', 'text/plain')],
				parameters: { ...BUCKET, resource: 'file', operation: 'upload', key, options: { refuseExisting: true } },
			});
		// The key is free: the first run's check gets the API's 404, which the gateway keeps.
		const first = await upload('first run: a draft');
		expect(first.error).toBeUndefined();
		// Another writer (the signing app) stores the signed contract at the key.
		await put(key, 'the signed contract, the only copy', 'other');
		await upload('second run: another draft');
		expect(nginx().hits.some((hit) => hit.includes('/api/v1/files/signed-url'))).toBe(true);
		expect(await read(key)).toBe('the signed contract, the only copy');
	}, 40_000);
});
