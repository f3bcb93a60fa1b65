import busboy from 'busboy';
import { Readable } from 'node:stream';

import { serviceWords } from '../../nodes/FileStorage/transport/errors';
import { PartBodyPool, formEnvelope, type FileForm } from '../../nodes/FileStorage/transport/formData';

function fileForm(bytes: Buffer, name: string, type: string): FileForm {
	const { head, tail, contentType } = formEnvelope(name, type);
	return { body: Buffer.concat([head, bytes, tail]), contentType };
}

describe('serviceWords: whichever error shape the service used', () => {
	it.each([
		[{ error: 'Invalid authentication credentials' }, 'Invalid authentication credentials'],
		[{ message: 'Bucket not found' }, 'Bucket not found'],
		[
			{ error: 'Resource not found', message: 'Bucket or file not found' },
			'Resource not found – Bucket or file not found',
		],
		[{ error: 'Same', message: 'Same' }, 'Same'],
		[
			{ error: 'Validation failed', details: [{ field: 'bucket_name', message: 'Bucket name is required' }] },
			'Validation failed – bucket_name: Bucket name is required',
		],
		['<html>Bad gateway</html>', '<html>Bad gateway</html>'],
		[undefined, ''],
		[{}, ''],
	])('%j → %j', (body, words) => {
		expect(serviceWords(body)).toBe(words);
	});
});

/** Parses a body the way the service's multer/busboy stack does. */
async function parseForm(body: Buffer, contentType: string) {
	return await new Promise<{ field: string; filename: string; mimeType: string; bytes: Buffer }>((resolve, reject) => {
		const parser = busboy({ headers: { 'content-type': contentType }, preservePath: true });
		parser.on('file', (field, stream, info) => {
			const chunks: Buffer[] = [];
			stream.on('data', (c: Buffer) => chunks.push(c));
			stream.on('end', () =>
				resolve({ field, filename: info.filename ?? '', mimeType: info.mimeType, bytes: Buffer.concat(chunks) }),
			);
		});
		parser.on('error', reject);
		Readable.from([body]).pipe(parser);
	});
}

describe('fileForm: one file field a standard parser reads back exactly', () => {
	it.each([
		'plain.txt',
		'reports/Q1 résumé+final.pdf',
		'quotes "a" \'b\' back\\slash (1)*!.txt',
		'emoji 🚀.bin',
		'line\u2028sep',
	])('file name %j', async (name) => {
		const bytes = Buffer.from([0, 1, 2, 13, 10, 45, 45, 255]);
		const form = fileForm(bytes, name, 'image/png');
		const parsed = await parseForm(form.body, form.contentType);
		expect(parsed).toEqual({ field: 'file', filename: name, mimeType: 'image/png', bytes });
	});

	it('a pooled body reads back the same, and its buffers are reused, never more than the pool size', async () => {
		const pool = new PartBodyPool(formEnvelope('big.bin', 'application/octet-stream'), 8, 2);
		const first = pool.take();
		Buffer.from('12345678').copy(first);
		const firstForm = pool.form(first);
		expect((await parseForm(firstForm.body, firstForm.contentType)).bytes.toString()).toBe('12345678');
		const second = pool.take();
		expect(() => pool.take()).toThrow(/exhausted/);
		pool.release(first);
		const reused = pool.take();
		expect(reused.buffer).toBe(first.buffer);
		Buffer.from('abc').copy(reused);
		const short = pool.form(reused.subarray(0, 3));
		expect((await parseForm(short.body, short.contentType)).bytes.toString()).toBe('abc');
		expect(() => pool.release(Buffer.alloc(8))).toThrow(/does not belong/);
		pool.release(second);
	});

	it('uses a fresh boundary each time', () => {
		expect(fileForm(Buffer.alloc(1), 'a', 'x/y').contentType).not.toBe(
			fileForm(Buffer.alloc(1), 'a', 'x/y').contentType,
		);
	});
});
