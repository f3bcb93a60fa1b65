/**
 * The browser-upload example page (examples/browser-upload/) on a loopback port, for `npm run dev`
 * and the browser test: the page, the browser SDK's UMD build from node_modules, and a config.js
 * that tells the page where the example workflow's webhook answers. Serves nothing else.
 */
import { once } from 'node:events';
import { promises as fsp } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';

import { PACKAGE_ROOT } from '../real-n8n/profiles';

/** The Webhook node of examples/workflows/browser-upload-backend.json; its path is dynamic, so n8n puts this id first. */
export const BROWSER_UPLOAD_WEBHOOK_ID = 'b7e4a1c2-3d5f-4e60-9a71-0c2d4e6f0401';

/** The production URL of the example's webhook, without the request type. */
export function browserUploadBackend(n8nUrl: string): string {
	return `${n8nUrl}/webhook/${BROWSER_UPLOAD_WEBHOOK_ID}/get-signed-url`;
}

export async function startPageServer(n8nUrl: string) {
	const page = { file: path.join(PACKAGE_ROOT, 'examples', 'browser-upload', 'index.html'), type: 'text/html' };
	const sdk = path.join(PACKAGE_ROOT, 'node_modules', '@apexxcloud', 'sdk-js', 'dist', 'sdk.js');
	const files: Record<string, { file: string; type: string }> = {
		'/': page,
		'/index.html': page,
		'/sdk.js': { file: sdk, type: 'text/javascript' },
	};
	const config = `window.FILE_STORAGE_BACKEND = ${JSON.stringify(browserUploadBackend(n8nUrl))};\n`;
	const server = createServer((req, res) => {
		const pathname = new URL(req.url ?? '/', 'http://page').pathname;
		const send = (status: number, type: string, body: string | Buffer) => {
			res.writeHead(status, { 'Content-Type': `${type}; charset=utf-8`, 'Cache-Control': 'no-store' });
			res.end(body);
		};
		if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'text/plain', 'Method not allowed\n');
		if (pathname === '/config.js') return send(200, 'text/javascript', config);
		const served = files[pathname];
		if (!served) return send(404, 'text/plain', 'Not found\n');
		// Read on each request, so an edit of the page shows on reload.
		fsp.readFile(served.file).then(
			(body) => send(200, served.type, body),
			(err: Error) => send(500, 'text/plain', `${err.message}\n`),
		);
	});
	await once(server.listen(0, '127.0.0.1'), 'listening');
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
		close: async () => {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}
