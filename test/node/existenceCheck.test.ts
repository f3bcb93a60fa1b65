/**
 * A step that must not write over a file (Copy and Move with Replace Existing File off, Upload with
 * Refuse Existing File) asks whether one is there, and only the API's own "not found" means no.
 * A proxy's or web server's 404 page in front of the API says nothing of the file: nothing is written.
 */
import { runNode } from '../harness';
import { useProxy, viaProxy } from './proxy';
import { BUCKET, fileItem, storedText, uploadWithNode, useEmulator } from './support';

const emulator = useEmulator();
const proxy = useProxy(emulator);
const read = async (key: string) => await storedText(emulator(), key);

const notFoundPage = { status: 404, html: '<html><body><h1>404 Not Found</h1></body></html>' };

describe('a proxy\'s 404 page in answer to the existence check is not "not there"', () => {
	for (const operation of ['copy', 'move']) {
		it(`${operation} with Replace Existing File off writes nothing over the destination`, async () => {
			await uploadWithNode(emulator(), `page/${operation}-source.txt`, 'new', { visibility: 'private' });
			await uploadWithNode(emulator(), `page/${operation}-target.txt`, 'keep me', { visibility: 'private' });
			proxy().setRules({ answerInstead: { signedUrl: [notFoundPage] } });
			const result = await runNode({
				credentials: viaProxy(emulator(), proxy()),
				parameters: {
					...BUCKET,
					resource: 'file',
					operation,
					fileKey: { __rl: true, mode: 'key', value: `page/${operation}-source.txt` },
					destinationKey: `page/${operation}-target.txt`,
					options: { maxRetries: 0 },
				},
			});
			expect(result.error?.message).toMatch(/could not tell whether the destination .* already exists/);
			expect(await read(`page/${operation}-target.txt`)).toBe('keep me');
			expect(await read(`page/${operation}-source.txt`)).toBe('new');
		});
	}

	it('Upload with Refuse Existing File replaces nothing', async () => {
		await uploadWithNode(emulator(), 'page/upload.txt', 'keep me', { visibility: 'private' });
		proxy().setRules({ answerInstead: { signedUrl: [notFoundPage] } });
		const result = await runNode({
			credentials: viaProxy(emulator(), proxy()),
			parameters: {
				...BUCKET,
				resource: 'file',
				operation: 'upload',
				key: 'page/upload.txt',
				options: { refuseExisting: true, maxRetries: 0 },
			},
			items: [fileItem(Buffer.from('replacement'), 'upload.txt', 'text/plain')],
		});
		expect(result.error).toBeDefined();
		expect(await read('page/upload.txt')).toBe('keep me');
	});
});
