import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	IAuthenticateRuleResponseSuccessBody,
	ICredentialType,
	IDataObject,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

import {
	SIGNED_HEADER_NAMES,
	checkBaseUrl,
	encodeQuery,
	signatureHeaders,
	splitUrl,
} from '../nodes/FileStorage/transport/signing';
import { GENERIC_NOT_FOUND_PHRASES, notTheApi, spellingsOf } from '../nodes/FileStorage/transport/apiAnswer';

export const DEFAULT_BASE_URL = 'https://api.apexxcloud.com';

/** A Test-button rule that fails when the answer's field `field` (a lodash path) is exactly `value`. */
function failOn(field: string, value: unknown, message: string): IAuthenticateRuleResponseSuccessBody {
	return { type: 'responseSuccessBody', properties: { key: field, value, message } };
}

function failOnError(value: unknown, message: string): IAuthenticateRuleResponseSuccessBody {
	return failOn('error', value, message);
}

/** A web server's "Not Found" as frameworks spell it; isApiErrorAnswer reads each of these as not the API. */
function notFoundSpellings(phrase: string): string[] {
	const [title, sentence] = spellingsOf(phrase).slice(1, 3);
	return [...spellingsOf(phrase), `404 ${phrase}`, `404 ${title}`, `${sentence}.`, `${title}.`];
}

/** What gateways, OAuth servers and frameworks answer to a request they refuse; the API says none of these. */
const FOREIGN_REFUSALS = [
	'unauthorized',
	'unauthenticated',
	'forbidden',
	'access denied',
	'permission denied',
	'invalid token',
	'invalid request',
	'invalid client',
	'invalid grant',
	'unauthorized client',
	'insufficient scope',
	'invalid api key',
	'authentication required',
	'bad request',
	'method not allowed',
];

/** A server's "try later", as the API spells it (spec §2) and as proxies and frameworks do. */
const BUSY_ANSWERS = [
	'internal server error',
	'service unavailable',
	'too many requests',
	'bad gateway',
	'gateway timeout',
];

/** HTTP statuses some APIs put in an `error` object or number; the API's `error` is always words. */
const STATUS_CODES = [400, 401, 403, 404, 405, 429, 500, 502, 503, 504];

function testRules(): IAuthenticateRuleResponseSuccessBody[] {
	const notFound = notTheApi('a plain "Not Found"');
	const refused = (word: string) => notTheApi(`"${word}", an error the File Storage API does not send`);
	const notWords = notTheApi('an "error" that is not words');
	return [
		failOnError(
			'Invalid authentication credentials',
			'Invalid authentication credentials: check the Access Key and Secret Key, and that the clock of the n8n host is correct',
		),
		...BUSY_ANSWERS.flatMap(spellingsOf).map((error) =>
			failOnError(
				error,
				`The Base URL answered "${error}": try the test again later. If it persists, check that the Base URL is the File Storage API's.`,
			),
		),
		// isApiErrorAnswer, as far as rules that compare one field to one value can say it: the
		// API's answer to this request always carries `error`, in words, never a bare "Not Found".
		failOnError(undefined, notTheApi('no API error body to a signed request')),
		...[null, true, false, ''].map((value) => failOnError(value, notWords)),
		...STATUS_CODES.flatMap((code) => [code, String(code)]).map((value) => failOnError(value, notWords)),
		...STATUS_CODES.map((code) => failOn('error.code', code, notWords)),
		...GENERIC_NOT_FOUND_PHRASES.flatMap(notFoundSpellings).map((word) => failOnError(word, notFound)),
		// Frameworks that answer with `message` alone already fail for lack of `error`; some send both.
		...notFoundSpellings('not found').map((word) => failOn('message', word, notFound)),
		...FOREIGN_REFUSALS.flatMap(spellingsOf).map((word) => failOnError(word, refused(word))),
	];
}

function withoutSignatureHeaders(headers: IDataObject | undefined): IDataObject {
	const signed = new Set(SIGNED_HEADER_NAMES.map((name) => name.toLowerCase()));
	const kept: IDataObject = {};
	for (const [name, value] of Object.entries(headers ?? {})) {
		if (!signed.has(name.toLowerCase())) kept[name] = value;
	}
	return kept;
}

function queryPairs(qs: IDataObject | undefined): Array<[string, string]> {
	return Object.entries(qs ?? {})
		.filter(([, value]) => value !== undefined && value !== null)
		.map(([name, value]) => [name, typeof value === 'object' ? JSON.stringify(value) : String(value)]);
}

/**
 * Turns whatever n8n hands over (relative url + baseURL + qs, or an absolute url we
 * signed before) into one absolute URL whose target is final, so the signature
 * covers exactly the bytes that go out. n8n's own qs encoder would differ from the
 * service's (URLSearchParams), hence qs is folded in here and cleared.
 */
function resolveAbsoluteUrl(credentials: ICredentialDataDecryptedObject, options: IHttpRequestOptions): string {
	// The HTTP Request node hands over legacy options that name the address `uri`.
	const legacyUri = (options as { uri?: unknown }).uri;
	let url = String(options.url ?? legacyUri ?? '');
	if (!/^https?:\/\//i.test(url)) {
		const base = checkBaseUrl(options.baseURL ?? credentials.baseUrl);
		if (!base.ok) throw new Error(`File Storage API credential: ${base.problem}`);
		url = `${base.origin}${url.startsWith('/') ? '' : '/'}${url}`;
	}
	const query = encodeQuery(queryPairs(options.qs));
	if (query) url += `${url.includes('?') ? '&' : '?'}${query}`;
	return url;
}

/** Bucket and key of the credential Test's request: names nobody is expected to use. */
const TEST_PROBE_NAME = 'n8n-credential-test';

export class FileStorageApi implements ICredentialType {
	name = 'fileStorageApi';

	displayName = 'File Storage API';

	icon: Icon = { light: 'file:fileStorage.svg', dark: 'file:fileStorage.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-file-storage/n8n-nodes-file-storage#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Access Key',
			name: 'accessKey',
			type: 'string',
			default: '',
			required: true,
			description: 'The API access key, sent in the X-Access-Key header of every request',
		},
		{
			displayName: 'Secret Key',
			name: 'secretKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'The signing secret. It never leaves n8n: it only computes the HMAC-SHA256 signature of each request.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: DEFAULT_BASE_URL,
			required: true,
			placeholder: `e.g. ${DEFAULT_BASE_URL}`,
			// n8n words a Test request that got no answer by its network code alone, whatever the
			// credential declares: the field says what those codes mean and the fix.
			description:
				'Scheme and host of the API, without a path. Use http://127.0.0.1:9480 for the local emulator. If the Test says ECONNREFUSED, ENOTFOUND or ETIMEDOUT, nothing answered at this address: check the scheme, host and port, and that the service is running and reachable from the n8n host.',
		},
		{
			displayName: 'API Paths',
			name: 'apiPaths',
			type: 'options',
			default: 'auto',
			description:
				"Which of the service's two spellings of the list, part upload and cancel paths to use. Automatic works with either.",
			options: [
				{
					name: 'Automatic',
					value: 'auto',
					description: "Learned once per Base URL by each n8n process, the published reference's paths first",
				},
				{
					name: 'Reference',
					value: 'reference',
					description: 'GET /files/list, POST /multipart/{ID}/upload, POST /multipart/{ID}/cancel',
				},
				{
					name: 'SDK',
					value: 'sdk',
					description: 'GET /files/contents, POST /multipart/{ID}, DELETE /multipart/{ID}',
				},
			],
		},
	];

	// Signing is a function rather than static headers because the signature depends on
	// the method, the final request target and a fresh timestamp. Calling it again on its
	// own output (n8n does on a 401) re-signs with a new timestamp.
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const absoluteUrl = resolveAbsoluteUrl(credentials, requestOptions);
		const { target } = splitUrl(absoluteUrl);
		const method = (requestOptions.method ?? 'GET').toUpperCase();
		const timestamp = new Date().toISOString();
		return {
			...requestOptions,
			url: absoluteUrl,
			baseURL: undefined,
			qs: undefined,
			headers: {
				...withoutSignatureHeaders(requestOptions.headers),
				...signatureHeaders(
					String(credentials.accessKey ?? ''),
					String(credentials.secretKey ?? ''),
					method,
					target,
					timestamp,
				),
			},
		};
	}

	// The test asks for a signed link in a bucket nobody has: that path is the same in both of the
	// service's path families (the listing is not), and it has no side effect. The API answers it
	// with its own 404 (`error: 'Resource not found'`) once the keys and the clock are right, and
	// with its 401 body when they are not. n8n's rules see only the body (not the status: the API's
	// 404 must not fail, so no status may) and fail only on a value they name, so they list what the
	// API never sends as its `error`: no `error` at all (a web page, another JSON API), one that is
	// not words, a web server's "Not Found", an OAuth server's or a gateway's refusal. Any other
	// JSON with an `error` in words passes. The one valid answer that fails is a link, if a bucket
	// of this name exists in us-east-1.
	test: ICredentialTestRequest = {
		request: {
			method: 'GET',
			baseURL: '={{$credentials.baseUrl}}',
			url: '/api/v1/files/signed-url',
			qs: { bucket_name: TEST_PROBE_NAME, region: 'us-east-1', key: TEST_PROBE_NAME },
			ignoreHttpStatusErrors: true,
		},
		rules: testRules(),
	};
}
