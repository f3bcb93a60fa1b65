/**
 * Download File when the CDN's answer names no Last-Modified (spec §3.12: a CDN answer carries
 * "whatever headers the CDN sends"; a proxy or CDN may drop Last-Modified), and the file was
 * replaced by one of the same size in a later second between the poll's listing and its download.
 * docs/trigger.md: "The bytes are the version the listing recorded, or none"; "Bytes not shown to be
 * the listed version: held back, then emitted without them".
 */
import type { HookCall } from '../emulator/history';
import { apiFor, nextSecond, Poller, put, useEmulator } from './support';

const emulator = useEmulator();
const api = () => apiFor(emulator());

beforeEach(() => emulator().adversary.setHooks(undefined));

describe('Download File whose CDN answer carries no Last-Modified', () => {
	it('never attaches the bytes of a version stored after the listing to the listed version', async () => {
		const key = 'undated/report.txt';
		const trigger = new Poller(emulator, {
			folder: 'undated',
			watchFor: ['created', 'updated'],
			options: { downloadFile: true },
		} as never);
		expect((await trigger.poll()).returnedNull).toBe(true);
		await put(api(), key, 'version-1', { visibility: 'private' });
		let replaced = false;
		emulator().adversary.setHooks({
			before: async (call: HookCall) => {
				if (!replaced && call.op === 'signedUrl' && call.query.get('key') === key) {
					// Another writer stores a same-size version in a later second, after the poll listed version-1.
					replaced = true;
					await nextSecond();
					await put(api(), key, 'version-2', { visibility: 'private' });
				}
				if (call.op === 'cdn') {
					// The origin's answer (no cache mark: the version stored now), through a CDN that drops Last-Modified.
					return {
						status: 200,
						headers: { 'Content-Type': 'text/plain', 'Content-Length': '9', Date: new Date().toUTCString() },
						body: 'version-2',
					};
				}
				return undefined;
			},
		});
		const seen: Array<{ event: unknown; last_modified: unknown; bytes?: string }> = [];
		for (let poll = 0; poll < 3; poll++) {
			const result = await trigger.poll();
			expect(result.error).toBeUndefined();
			for (const item of result.items) {
				const bytes = item.binary ? (await result.readBinary(item)).toString() : undefined;
				seen.push({ event: item.json.event, last_modified: item.json.last_modified, bytes });
			}
		}
		const listed = JSON.parse((await api().list({ prefix: 'undated/' })).body.toString()) as {
			data: { contents: { children: Array<{ path: string; last_modified: string }> } };
		};
		const version2 = listed.data.contents.children.find((entry) => entry.path === key)!.last_modified;
		// Bytes 'version-2' may only come with version-2's record.
		const wrong = seen.filter((item) => item.bytes === 'version-2' && item.last_modified !== version2);
		expect({ wrong }).toEqual({ wrong: [] });
	});
});
