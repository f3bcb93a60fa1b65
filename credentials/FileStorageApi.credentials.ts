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
import { GENERIC_NOT_FOUND_WORDS, notTheApi } from '../nodes/FileStorage/transport/apiAnswer';

export const DEFAULT_BASE_URL = 'https://api.apexxcloud.com';

/** A Test-button rule that fails when the answer's `error` field is `value`. */
function failOnError(value: string | undefined, message: string): IAuthenticateRuleResponseSuccessBody {
	return { type: 'responseSuccessBody', properties: { key: 'error', value, message } };
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
			description: 'Scheme and host of the API, without a path. Use http://127.0.0.1:9480 for the local emulator.',
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
	// with its 401 body when they are not. n8n's rules can only fail on a value they name, so the
	// rules below leave exactly the API's own 404 passing: an `error` the API sends for other
	// reasons fails, and so does an answer without `error` — what a web server at a wrong Base URL
	// sends (an HTML page, another JSON API). The one valid answer that fails is a link, if a
	// bucket of this name exists in us-east-1.
	test: ICredentialTestRequest = {
		request: {
			method: 'GET',
			baseURL: '={{$credentials.baseUrl}}',
			url: '/api/v1/files/signed-url',
			qs: { bucket_name: TEST_PROBE_NAME, region: 'us-east-1', key: TEST_PROBE_NAME },
			ignoreHttpStatusErrors: true,
		},
		rules: [
			failOnError(
				'Invalid authentication credentials',
				'Invalid authentication credentials: check the Access Key and Secret Key, and that the clock of the n8n host is correct',
			),
			...['Internal server error', 'Service unavailable', 'Too many requests'].map((error) =>
				failOnError(error, `The File Storage API answered "${error}": try the test again later`),
			),
			// isApiErrorAnswer, as far as rules that compare one field can say it: the API's
			// answer to this listing always carries `error`.
			failOnError(undefined, notTheApi('no API error body to a signed request')),
			...GENERIC_NOT_FOUND_WORDS.map((word) => failOnError(word, notTheApi(`a plain "${word}"`))),
		],
	};
}
