/**
 * A tiny, independent client for the conformance suite, written from the spec (§1–§3), not from
 * the emulator's code: it signs with node:crypto, builds queries with URLSearchParams in the
 * SDK's parameter order, and writes multipart/form-data bodies by hand. Real HTTP only.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import * as http from 'node:http';

import { assertAnswerKeepsContract } from './contract';

export interface Credentials {
	accessKey: string;
	secretKey: string;
}

export function sign(secret: string, method: string, target: string, timestamp: string): string {
	return createHmac('sha256', secret).update(`${method}\n${target}\n${timestamp}`, 'latin1').digest('hex');
}

export function sha256(data: Buffer): string {
	return createHash('sha256').update(data).digest('hex');
}

export function md5(data: Buffer): string {
	return createHash('md5').update(data).digest('hex');
}

/** Query in the given order, URLSearchParams-encoded; undefined values are left out. */
export function query(params: Array<[string, string | number | undefined]>): string {
	const search = new URLSearchParams();
	for (const [name, value] of params) if (value !== undefined) search.append(name, String(value));
	const s = search.toString();
	return s === '' ? '' : `?${s}`;
}

export interface FormPart {
	name: string;
	filename?: string;
	contentType?: string;
	data: Buffer;
}

/** multipart/form-data as browsers and the SDK write it: `"` in a filename becomes %22. */
export function formBody(parts: FormPart[]): { contentType: string; body: Buffer } {
	const boundary = `----conformance${randomBytes(12).toString('hex')}`;
	const chunks: Buffer[] = [];
	for (const part of parts) {
		let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
		if (part.filename !== undefined)
			head += `; filename="${part.filename.replace(/"/g, '%22').replace(/\r?\n/g, ' ')}"`;
		head += '\r\n';
		if (part.contentType !== undefined) head += `Content-Type: ${part.contentType}\r\n`;
		chunks.push(Buffer.from(`${head}\r\n`, 'utf8'), part.data, Buffer.from('\r\n'));
	}
	chunks.push(Buffer.from(`--${boundary}--\r\n`));
	return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(chunks) };
}

export interface Response {
	status: number;
	headers: http.IncomingHttpHeaders;
	body: Buffer;
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	json: any;
}

export interface RawRequest {
	method: string;
	/** Sent verbatim as the request target. */
	target: string;
	headers?: Record<string, string>;
	body?: Buffer;
	timeoutMs?: number;
	/** Check the answer against the wire contract (default true); off only for answers made wrong on purpose. */
	checkContract?: boolean;
}

/** One request on a fresh connection; resolves with whatever the server answered. */
export function rawRequest(baseUrl: string, r: RawRequest): Promise<Response> {
	const { hostname, port } = new URL(baseUrl);
	return new Promise((resolve, reject) => {
		const req = http.request({
			host: hostname,
			port,
			method: r.method,
			path: r.target,
			headers: { ...(r.body ? { 'Content-Length': String(r.body.length) } : {}), ...r.headers },
			agent: false,
		});
		if (r.timeoutMs) req.setTimeout(r.timeoutMs, () => req.destroy(new Error('client timeout')));
		req.on('error', reject);
		req.on('response', (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (c: Buffer) => chunks.push(c));
			res.on('error', reject);
			res.on('end', () => {
				const body = Buffer.concat(chunks);
				let json: unknown;
				if (/json/.test(String(res.headers['content-type'] ?? ''))) {
					try {
						json = JSON.parse(body.toString('utf8'));
					} catch {
						json = undefined;
					}
				}
				const answer = { status: res.statusCode ?? 0, headers: res.headers, body, json };
				if (r.checkContract !== false) {
					try {
						assertAnswerKeepsContract({ method: r.method, target: r.target, ...answer });
					} catch (err) {
						reject(err);
						return;
					}
				}
				resolve(answer);
			});
		});
		req.end(r.body);
	});
}

export interface SignOptions {
	/** Timestamp to send and sign (default: now). */
	timestamp?: string;
	/** Sign as if these differed from what is sent. */
	signMethod?: string;
	signTarget?: string;
	signTimestamp?: string;
	credentials?: Credentials;
	/** Replace the computed signature. */
	signature?: string;
	/** Leave these headers out. */
	omit?: Array<'X-Access-Key' | 'X-Timestamp' | 'X-Signature'>;
}

export function authHeaders(
	creds: Credentials,
	method: string,
	target: string,
	o: SignOptions = {},
): Record<string, string> {
	const c = o.credentials ?? creds;
	const timestamp = o.timestamp ?? new Date().toISOString();
	const headers: Record<string, string> = {
		'X-Access-Key': c.accessKey,
		'X-Timestamp': timestamp,
		'X-Signature':
			o.signature ?? sign(c.secretKey, o.signMethod ?? method, o.signTarget ?? target, o.signTimestamp ?? timestamp),
	};
	for (const name of o.omit ?? []) delete headers[name];
	return headers;
}

export interface ClientOptions {
	baseUrl: string;
	credentials: Credentials;
	bucket: string;
	region: string;
	/** Clock for X-Timestamp, when the server runs on a fake clock. */
	now?: () => number;
	/** false: do not check answers against the wire contract (for answers made wrong on purpose). */
	checkContract?: boolean;
	/** The path family for list, part upload and cancel: the published reference's (default) or the SDK's. */
	family?: 'reference' | 'sdk';
}

export interface PartRef {
	PartNumber: number;
	ETag: string;
}

/** The API as the service's SDK calls it. */
/**
 * A client of an emulator's API with its keys, for tests that change a bucket beside the node
 * (answers not checked against the contract: those tests check other things).
 */
export function emulatorClient(
	emulator: { url: string; accessKey: string; secretKey: string },
	bucket = 'my-bucket',
	region = 'us-east-1',
): ApiClient {
	return new ApiClient({
		baseUrl: emulator.url,
		credentials: { accessKey: emulator.accessKey, secretKey: emulator.secretKey },
		bucket,
		region,
		checkContract: false,
	});
}

export class ApiClient {
	constructor(readonly o: ClientOptions) {}

	/** The same client without the contract check, for faults that break answers on purpose. */
	unchecked(): ApiClient {
		return new ApiClient({ ...this.o, checkContract: false });
	}

	/** The same client speaking the other path family's spelling of list, part upload and cancel. */
	inFamily(family: 'reference' | 'sdk'): ApiClient {
		return new ApiClient({ ...this.o, family });
	}

	private get sdk(): boolean {
		return this.o.family === 'sdk';
	}

	private timestamp(): string {
		return new Date(this.o.now ? this.o.now() : Date.now()).toISOString();
	}

	async send(
		method: string,
		target: string,
		body?: Buffer,
		headers: Record<string, string> = {},
		sign: SignOptions = {},
	): Promise<Response> {
		return rawRequest(this.o.baseUrl, {
			method,
			target,
			body,
			checkContract: this.o.checkContract,
			headers: {
				...authHeaders(this.o.credentials, method, target, { timestamp: this.timestamp(), ...sign }),
				...headers,
			},
		});
	}

	async sendForm(method: string, target: string, parts: FormPart[], sign: SignOptions = {}): Promise<Response> {
		const form = formBody(parts);
		return this.send(method, target, form.body, { 'Content-Type': form.contentType }, sign);
	}

	listTarget(o: { prefix?: string; page?: number | string; limit?: number | string } = {}): string {
		return `/api/v1/files/${this.sdk ? 'contents' : 'list'}${query([
			['bucket_name', this.o.bucket],
			['region', this.o.region],
			['prefix', o.prefix],
			['page', o.page],
			['limit', o.limit],
		])}`;
	}

	list(o: { prefix?: string; page?: number | string; limit?: number | string } = {}): Promise<Response> {
		return this.send('GET', this.listTarget(o));
	}

	uploadTarget(key: string, visibility?: string): string {
		return `/api/v1/files/upload${query([
			['bucket_name', this.o.bucket],
			['region', this.o.region],
			['visibility', visibility],
			['key', key],
		])}`;
	}

	/** As the SDK: form field `file`, filename = key. */
	upload(key: string, data: Buffer, o: { visibility?: string; contentType?: string } = {}): Promise<Response> {
		return this.sendForm('PUT', this.uploadTarget(key, o.visibility), [
			{ name: 'file', filename: key, contentType: o.contentType ?? 'application/octet-stream', data },
		]);
	}

	start(key: string, o: { mimeType?: string; visibility?: string; totalParts?: number } = {}): Promise<Response> {
		return this.send(
			'POST',
			`/api/v1/files/multipart/start${query([
				['bucket_name', this.o.bucket],
				['region', this.o.region],
				['key', key],
				['mimeType', o.mimeType],
				['visibility', o.visibility],
				['totalParts', o.totalParts],
			])}`,
		);
	}

	partTarget(uploadId: string, key: string, partNumber: number | string, totalParts?: number): string {
		return `/api/v1/files/multipart/${uploadId}${this.sdk ? '' : '/upload'}${query([
			['bucket_name', this.o.bucket],
			['region', this.o.region],
			['partNumber', partNumber],
			['key', key],
			['totalParts', totalParts],
		])}`;
	}

	uploadPart(uploadId: string, key: string, partNumber: number, data: Buffer, totalParts?: number): Promise<Response> {
		return this.sendForm('POST', this.partTarget(uploadId, key, partNumber, totalParts), [
			{ name: 'file', filename: key, contentType: 'application/octet-stream', data },
		]);
	}

	completeTarget(uploadId: string, key: string, action: 'complete' | 'cancel' = 'complete'): string {
		return `/api/v1/files/multipart/${uploadId}/${action}${query([
			['bucket_name', this.o.bucket],
			['region', this.o.region],
			['key', key],
		])}`;
	}

	complete(uploadId: string, key: string, parts: unknown): Promise<Response> {
		return this.send('POST', this.completeTarget(uploadId, key), Buffer.from(JSON.stringify({ parts })), {
			'Content-Type': 'application/json',
		});
	}

	cancel(uploadId: string, key: string): Promise<Response> {
		if (this.sdk) return this.send('DELETE', this.completeTarget(uploadId, key).replace('/complete?', '?'));
		return this.send('POST', this.completeTarget(uploadId, key, 'cancel'));
	}

	purge(key: string): Promise<Response> {
		return this.send(
			'POST',
			`/api/v1/files/purge${query([
				['bucket_name', this.o.bucket],
				['region', this.o.region],
				['key', key],
			])}`,
		);
	}

	delete(key: string): Promise<Response> {
		return this.send(
			'DELETE',
			`/api/v1/files/delete${query([
				['bucket_name', this.o.bucket],
				['region', this.o.region],
				['key', key],
			])}`,
		);
	}

	signedUrl(key: string, expiresIn?: number | string): Promise<Response> {
		return this.send(
			'GET',
			`/api/v1/files/signed-url${query([
				['bucket_name', this.o.bucket],
				['region', this.o.region],
				['key', key],
				['expiresIn', expiresIn],
			])}`,
		);
	}

	/** Fetches an absolute URL (a location or signed URL) without touching its encoding. */
	fetchUrl(url: string, method = 'GET'): Promise<Response> {
		const origin = new URL(url).origin;
		if (!url.startsWith(origin)) throw new Error(`unexpected url ${url}`);
		return rawRequest(origin, { method, target: url.slice(origin.length), checkContract: this.o.checkContract });
	}
}

export function randomData(size: number): Buffer {
	return randomBytes(size);
}

/** Every 2xx/4xx answer of the API is JSON; this keeps failures readable in test output. */
export function show(res: Response): string {
	return `${res.status} ${res.json ? JSON.stringify(res.json) : res.body.toString('utf8').slice(0, 200)}`;
}
