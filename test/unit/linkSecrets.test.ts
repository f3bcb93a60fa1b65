import { linkSecrets, REDACTED, withoutSecrets } from '../../nodes/FileStorage/transport/errors';

const LINK = 'https://cdn.example/f/acc/a%20b.pdf?expires=1790000000&signature=0123456789abcdef&t=%2Fx%2By%3D1&p=2';

describe("a signed link's secrets in an error body", () => {
	it('are the query values of 8 characters or more, as sent and as decoded, the longest first', () => {
		expect(linkSecrets(LINK)).toEqual(['0123456789abcdef', '%2Fx%2By%3D1', '1790000000']);
		expect(linkSecrets('https://cdn.example/f/acc/a.pdf')).toEqual([]);
	});

	it('are replaced in a text body and in every string of a JSON body', () => {
		const secrets = linkSecrets(LINK);
		expect(withoutSecrets(`Denied: ${LINK}`, secrets)).toBe(
			`Denied: https://cdn.example/f/acc/a%20b.pdf?expires=${REDACTED}&signature=${REDACTED}&t=${REDACTED}&p=2`,
		);
		expect(
			withoutSecrets({ Error: { Code: 'SignatureDoesNotMatch', Provided: ['0123456789abcdef'] }, n: 3 }, secrets),
		).toEqual({ Error: { Code: 'SignatureDoesNotMatch', Provided: [REDACTED] }, n: 3 });
	});
});
