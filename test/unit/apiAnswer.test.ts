import { isApiErrorAnswer } from '../../nodes/FileStorage/transport/apiAnswer';

describe("isApiErrorAnswer: the API's own error body, or another server's", () => {
	it.each([
		['a listing 404', { error: 'Resource not found', message: 'Bucket or file not found' }],
		["Complete's 404", { message: 'Bucket not found' }],
		['a 401', { error: 'Invalid authentication credentials' }],
		['a validation error', { error: 'Validation failed', details: [{ field: 'key', message: 'required' }] }],
		['a 404 still in JSON text', '{"error":"Resource not found","message":"Bucket or file not found"}'],
		['a 404 still in bytes', Buffer.from('{"message":"Bucket not found"}')],
	])("%s is the API's", (_name, body) => {
		expect(isApiErrorAnswer(body)).toBe(true);
	});

	it.each([
		['an HTML page', '<html><body>Not Found</body></html>'],
		['an empty body', ''],
		['no body', undefined],
		['a JSON array', [{ error: 'x' }]],
		["a framework's JSON 404", { statusCode: 404, message: 'Cannot GET /api/v1/files/list', error: 'Not Found' }],
		["another API's 404", { message: 'Not Found', documentation_url: 'https://example.com' }],
		['a lower-case "not found" with spaces', { error: ' not found ' }],
		['an object without error or message', { detail: 'Not Found' }],
		['empty words', { error: '', message: '  ' }],
		["a framework's JSON 404 still in text", '{"statusCode":404,"error":"Not Found"}'],
		['a snake-case "not_found"', { error: 'not_found' }],
		['an upper-case "NOT_FOUND"', { error: 'NOT_FOUND' }],
		['a "404 Not Found"', { error: '404 Not Found' }],
		['a "Not found." in message', { error: 'E_ROUTE', message: 'Not found.' }],
		['a "PageNotFound"', { error: 'PageNotFound' }],
	])('%s is not', (_name, body) => {
		expect(isApiErrorAnswer(body)).toBe(false);
	});
});
