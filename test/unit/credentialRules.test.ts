/**
 * The credential Test's rules as n8n applies them (the first rule whose field, read like lodash
 * `get`, equals its value exactly, fails the Test), against the bodies the spec gives the API and
 * the node's own judgement of a Base URL (isApiErrorAnswer): the two must not disagree.
 */
import { FileStorageApi } from '../../credentials/FileStorageApi.credentials';
import { isApiErrorAnswer } from '../../nodes/FileStorage/transport/apiAnswer';

const rules = new FileStorageApi().test.rules ?? [];

function fieldAt(data: unknown, key: string): unknown {
	return key.split('.').reduce<unknown>((value, name) => (value as Record<string, unknown> | undefined)?.[name], data);
}

/** The message of the rule that fails the Test for this body, or undefined when it passes. */
function verdict(body: unknown): string | undefined {
	const rule = rules.find(
		(candidate) =>
			candidate.type === 'responseSuccessBody' &&
			fieldAt(body, candidate.properties.key as string) === candidate.properties.value,
	);
	return rule?.properties.message as string | undefined;
}

describe("the credential Test's rules", () => {
	it("pass the API's own 404 to the probe, with or without its message", () => {
		expect(verdict({ error: 'Resource not found', message: 'Bucket or file not found' })).toBeUndefined();
		expect(verdict({ error: 'Resource not found' })).toBeUndefined();
	});

	it("fail the API's 401 with the keys-and-clock message, and its 500/503/429 with try again later", () => {
		expect(verdict({ error: 'Invalid authentication credentials' })).toMatch(/check the Access Key and Secret Key/);
		for (const error of ['Internal server error', 'Service unavailable', 'Too many requests']) {
			expect(verdict({ error })).toMatch(/try the test again later/);
		}
	});

	it('every "Not Found" the Test fails on is one the node also calls not the API', () => {
		const notFound = rules.filter((rule) => /plain "Not Found"/.test(String(rule.properties.message)));
		expect(notFound.length).toBeGreaterThan(20);
		for (const rule of notFound) {
			const { key, value } = rule.properties as { key: string; value: unknown };
			const body = { [key]: value };
			expect([body, isApiErrorAnswer(body)]).toEqual([body, false]);
		}
	});

	it('pass the API\'s 400 "Validation failed": the keys were accepted', () => {
		expect(verdict({ error: 'Validation failed', details: [{ field: 'bucket_name', message: 'x' }] })).toBeUndefined();
	});
});
