/**
 * Request signing per the API spec §1, written here from the spec rather than borrowed from the
 * node, so the curl ceiling, the minimal clients and the seeding do not depend on the code being
 * measured; and the one signed request they all send.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { request, type Agent } from 'node:http';
import { buffer } from 'node:stream/consumers';

/** What a signed request needs of the emulator (EmulatorInfo). */
export interface Service {
	accessKey: string;
	secretKey: string;
	url: string;
	bucket: { name: string; region: string };
}

/** The path and query of a request naming the bucket and region, as every request does, then `query`. */
export function bucketTarget(service: Service, path: string, query: Array<[string, string]> = []): string {
	const params = new URLSearchParams({ bucket_name: service.bucket.name, region: service.bucket.region });
	for (const [name, value] of query) params.append(name, value);
	return `${path}?${params.toString()}`;
}

export function signedHeaders(service: Service, method: string, requestTarget: string): Record<string, string> {
	const timestamp = new Date().toISOString();
	const signature = createHmac('sha256', service.secretKey)
		.update(`${method}\n${requestTarget}\n${timestamp}`)
		.digest('hex');
	return { 'X-Access-Key': service.accessKey, 'X-Timestamp': timestamp, 'X-Signature': signature };
}

export type Answer = { status: number; body: Buffer };

/** One request over `agent` (unsigned: a signed download link carries its own signature). */
export function send(
	url: string,
	agent: Agent,
	method: string,
	headers: Record<string, string | number>,
	body: Buffer[] = [],
): Promise<Answer> {
	if (body.length) headers = { ...headers, 'Content-Length': body.reduce((n, b) => n + b.length, 0) };
	return new Promise((resolve, reject) => {
		const req = request(url, { method, headers, agent }, (res) =>
			buffer(res).then((answer) => resolve({ status: res.statusCode ?? 0, body: answer }), reject),
		);
		req.on('error', reject);
		for (const chunk of body) req.write(chunk);
		req.end();
	});
}

/** A signed request to `requestTarget` (from bucketTarget()). */
export function signedSend(
	service: Service,
	agent: Agent,
	method: string,
	requestTarget: string,
	body: Buffer[] = [],
	contentType?: string,
): Promise<Answer> {
	const headers = signedHeaders(service, method, requestTarget);
	if (contentType) headers['Content-Type'] = contentType;
	return send(`${service.url}${requestTarget}`, agent, method, headers, body);
}

/** The `data` of a JSON answer, or an error naming `what`. */
export function dataOf<T>(answer: Answer, what: string): T {
	if (answer.status !== 200) throw new Error(`${what}: HTTP ${answer.status} ${answer.body.toString('utf8')}`);
	return (JSON.parse(answer.body.toString('utf8')) as { data: T }).data;
}

/** A one-file multipart form around `content`: the parts to send and its content type. */
export function form(fileName: string, mimeType: string, content: Buffer): { body: Buffer[]; contentType: string } {
	const boundary = `----bench${randomBytes(8).toString('hex')}`;
	const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${mimeType}\r\n\r\n`;
	return {
		body: [Buffer.from(head), content, Buffer.from(`\r\n--${boundary}--\r\n`)],
		contentType: `multipart/form-data; boundary=${boundary}`,
	};
}
