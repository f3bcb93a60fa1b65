import { judgeLength, lengthFacts } from '../../nodes/FileStorage/download/downloadLength';

describe('lengthFacts: what an answer states about its length', () => {
	it('reads Content-Length; a missing or empty Content-Length, or chunked framing, is no length', () => {
		expect(lengthFacts({ 'content-length': '1024' })).toEqual({ announced: 1024, expected: undefined });
		expect(lengthFacts({ 'transfer-encoding': 'chunked' })).toEqual({ announced: undefined, expected: undefined });
		expect(lengthFacts({ 'content-length': '' }, 5).announced).toBeUndefined();
		expect(lengthFacts(undefined, 5)).toEqual({ announced: undefined, expected: 5 });
	});
});

describe('judgeLength: a body that ended without an error', () => {
	it('fails when shorter than the size the listing gave, whatever the answer announced', () => {
		expect(judgeLength(65_536, { announced: 65_536, expected: 1_048_576 })).toEqual({
			problem: 'was cut short: received 65536 of 1048576 bytes (the size the listing gave)',
			hint: 'The connection ended early. Run the node again.',
		});
	});

	it('fails when longer than the size the listing gave (the file changed since)', () => {
		expect(judgeLength(2_000, { expected: 1_000 })).toMatchObject({
			problem: 'is longer than listed: received 2000 bytes, the listing gave 1000',
		});
	});

	it('is confirmed by the listed size, even when the answer stated no length', () => {
		expect(judgeLength(1_000, { expected: 1_000 })).toEqual({ confirmed: true });
	});

	it('is confirmed by a matching Content-Length only; not by a Content-Length of a packed body', () => {
		expect(judgeLength(300_000, { announced: 300_000 })).toEqual({ confirmed: true });
		// n8n unpacked a gzip body and kept the packed length: complete, but the size stated nowhere.
		expect(judgeLength(300_000, { announced: 300_113 })).toEqual({ confirmed: false });
		expect(judgeLength(130_000, { announced: 400 })).toEqual({ confirmed: false });
	});

	it('is not confirmed without a Content-Length: chunked, or ended with the connection, either may be cut', () => {
		expect(judgeLength(65_536, {})).toEqual({ confirmed: false });
	});
});
