/**
 * File → Transform (spec §3.11): the CDN URL of a stored file with a transformation segment, built
 * from the location the service gives, fetched as is (the emulator names the transformation it
 * was asked for in X-Emulator-Transformation), and the transformed file downloaded.
 */
import type { INodeParameters } from 'n8n-workflow';

import { byKey, fileItem, randomFile, runFileStorage, useEmulator } from './support';

const emulator = useEmulator();
const IMAGE = randomFile(4000);

async function store(key: string, visibility: string) {
	const result = await runFileStorage(
		emulator(),
		{ resource: 'file', operation: 'upload', key, visibility },
		{ items: [fileItem(IMAGE, 'cat.jpg', 'image/jpeg')] },
	);
	expect(result.error).toBeUndefined();
}

beforeAll(async () => {
	await store('photos/cat.jpg', 'public');
	await store('photos/secret.jpg', 'private');
});
beforeEach(() => emulator().resetStats());

const transform = async (parameters: INodeParameters, key = 'photos/cat.jpg') =>
	await runFileStorage(emulator(), { resource: 'file', operation: 'transform', fileKey: byKey(key), ...parameters });

/** The URL from the node, fetched as a browser would: what the CDN was asked for. */
async function fetched(url: string) {
	const response = await fetch(url);
	return {
		status: response.status,
		transformation: response.headers.get('x-emulator-transformation'),
		body: Buffer.from(await response.arrayBuffer()),
	};
}

describe('File → Transform', () => {
	it.each([
		[
			'an image',
			{ transformation: 'image', width: 200, height: 100, crop: 'fill', gravity: 'face' },
			'tr-w_200,h_100,c_fill,g_face',
		],
		['an image format and quality', { transformation: 'image', imageFormat: 'webp', quality: 80 }, 'tr-f_webp,q_80'],
		['a video thumbnail', { transformation: 'videoThumbnail', second: 5 }, 'thumb-so_5.0'],
		['a video thumbnail at 2.5 s', { transformation: 'videoThumbnail', second: 2.5 }, 'thumb-so_2.5'],
		['a document', { transformation: 'document', documentFormat: 'pdf', pages: '1-3' }, 'tr-f_pdf,p_1-3'],
		['a document thumbnail', { transformation: 'documentThumbnail', page: 2 }, 'thumb-pg_2'],
		[
			'a raw chain',
			{ transformation: 'raw', rawTransformation: 'tr-w_200,h_100+e_grayscale' },
			'tr-w_200,h_100+e_grayscale',
		],
	])(
		'%s: the URL puts the segment after the access id of the location, and the CDN is asked for it',
		async (_, parameters, segment) => {
			const result = await transform(parameters as INodeParameters);
			expect(result.error).toBeUndefined();
			const { url, transformation, location } = result.items[0].json;
			expect(transformation).toBe(segment);
			expect(location).toBe(`${emulator().cdnUrl}/f/${emulator().accessId}/photos/cat.jpg`);
			expect(url).toBe(`${emulator().cdnUrl}/f/${emulator().accessId}/${segment}/photos/cat.jpg`);
			const answer = await fetched(String(url));
			expect([answer.status, answer.transformation]).toEqual([200, segment]);
		},
	);

	it.each([
		'tr-q_auto:standard',
		'thumb-pg_1+w_200',
		'tr-l_image:logos@@mark.png:l_gravity_north,o_50',
		'tr-bo_2_solid_ff0000,r_10:20:30:40',
		'tr-dpr_2.0,ar_16:9+e_grayscale',
	])(
		'a Raw Transformation written as the browser SDK writes it (%s) is accepted, and the CDN is asked for it',
		async (raw) => {
			const result = await transform({ transformation: 'raw', rawTransformation: raw });
			expect(result.error).toBeUndefined();
			const { url, transformation } = result.items[0].json;
			expect(transformation).toBe(raw);
			const answer = await fetched(String(url));
			expect([answer.status, answer.transformation]).toEqual([200, raw]);
		},
	);

	it('Download Transformed File puts the CDN’s answer in a binary field', async () => {
		const result = await transform({ transformation: 'image', width: 64, downloadTransformed: true });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ transformation: 'tr-w_64', size: IMAGE.length });
		// The emulator transforms nothing: the bytes are the original's.
		expect((await result.readBinary(result.items[0])).equals(IMAGE)).toBe(true);
		expect(emulator().stats().requests.cdn).toBe(1);
	});

	it('a private file is refused, saying the service does not publish transformations of signed links', async () => {
		const result = await transform(
			{ transformation: 'image', width: 64, downloadTransformed: true },
			'photos/secret.jpg',
		);
		expect(result.error?.message).toBe(
			"'photos/secret.jpg' is a private file: transformations are supported for public files only",
		);
		expect(result.error?.description).toMatch(/does not publish/);
		expect(emulator().stats().requests.cdn).toBe(0);
	});
});

describe('File → Transform: bad input', () => {
	it.each([
		['a space in a value', 'tr-l_text:Hello World', /contains a space/],
		['a space after a comma', 'tr-w_200, h_100', /contains a space/],
		['a tab', 'tr-w_200,\th_100', /contains the control character U\+0009/],
		['a NUL in a value', 'tr-w_2\u0000', /contains the control character U\+0000/],
		['a "?"', 'tr-w_200?x=1', /contains "\?"/],
		['a "+" with no set after it', 'tr-w_200+', /empty set/],
		['two "+" in a row', 'tr-w_200++e_grayscale', /empty set/],
		['a "," with no pair after it', 'tr-w_200,', /empty pair/],
		['nothing after the prefix', 'tr-', /empty set/],
		[
			'a chained set with a prefix of its own',
			'tr-w_200+tr-h_100',
			/"tr-h_100" is not a name_value pair.*no prefix of its own/,
		],
		['a name in capitals', 'tr-W_200', /"W_200" is not a name_value pair/],
	])(
		'a Raw Transformation with %s is refused naming the field, with an example, before any request',
		async (_, raw, problem) => {
			const result = await transform({ transformation: 'raw', rawTransformation: `={{ ${JSON.stringify(raw)} }}` });
			expect(result.error?.message).toMatch(/^The parameter 'Raw Transformation' is not valid: /);
			expect(result.error?.message).toMatch(problem);
			expect(result.error?.description).toMatch(/e\.g\. tr-w_200,h_100\+e_grayscale/);
			expect(emulator().stats().requests.signedUrl).toBe(0);
		},
	);

	it('an unknown name in a raw transformation names the allowed names, and nothing is sent', async () => {
		const result = await transform({ transformation: 'raw', rawTransformation: 'tr-w_200,zoom_2' });
		expect(result.error?.message).toBe(
			'The parameter \'Raw Transformation\' is not valid: unknown transformation name "zoom"; allowed: w h ar z dpr c g b bo r a o blur e l f q p so pg',
		);
		expect(emulator().stats().requests.signedUrl).toBe(0);
	});

	it.each([
		[
			'a raw string without tr- or thumb-',
			{ transformation: 'raw', rawTransformation: 'w_200' },
			/must start with "tr-"/,
		],
		[
			'a raw pair without a value',
			{ transformation: 'raw', rawTransformation: 'tr-w' },
			/"w" is not a name_value pair/,
		],
		[
			'a raw string with a "/"',
			{ transformation: 'raw', rawTransformation: 'tr-w_2/00' },
			/contains "\/": "\/", "\?", "#", spaces and control characters cannot be/,
		],
		[
			'an empty raw string',
			{ transformation: 'raw', rawTransformation: '' },
			/'Raw Transformation' is not valid: it is empty/,
		],
		['quality 101', { transformation: 'image', quality: 101 }, /'Quality' must be a whole number from 1 to 100/],
		['an image with nothing set', { transformation: 'image' }, /No transformation is set/],
		[
			'pages that are not a range',
			{ transformation: 'document', pages: '1,3' },
			/'Pages' is "1,3", not a page or a range/,
		],
		['a negative second', { transformation: 'videoThumbnail', second: -1 }, /'Second' must be 0 or more/],
		[
			'a negative width',
			{ transformation: 'image', width: -200 },
			/'Width' must be a whole number from 1 to 100000 \(got -200\)/,
		],
		[
			'a negative height',
			{ transformation: 'image', height: -1 },
			/'Height' must be a whole number from 1 to 100000 \(got -1\)/,
		],
		[
			'a negative quality',
			{ transformation: 'image', quality: -5 },
			/'Quality' must be a whole number from 1 to 100 \(got -5\)/,
		],
		[
			'a negative page',
			{ transformation: 'documentThumbnail', page: -2 },
			/'Page' must be a whole number from 1 to 100000 \(got -2\)/,
		],
		[
			'page 0 (pages count from 1)',
			{ transformation: 'documentThumbnail', page: 0 },
			/'Page' must be a whole number from 1 to 100000 \(got 0\)/,
		],
	])('%s is refused naming the field', async (_, parameters, message) => {
		const result = await transform(parameters as INodeParameters);
		expect(result.error?.message).toMatch(message);
		expect(emulator().stats().requests.signedUrl).toBe(0);
	});
});

describe('Transform: a hostile CDN and raw strings', () => {
	const bigImage = randomFile(50_000);
	afterEach(() => emulator().setFaults([]));
	beforeAll(async () => {
		const stored = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'upload', key: 'r32/cat.jpg', visibility: 'public' },
			{ items: [fileItem(bigImage, 'cat.jpg', 'image/jpeg')] },
		);
		expect(stored.error).toBeUndefined();
	});
	const transformBig = async (parameters: INodeParameters) =>
		await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'transform',
			fileKey: { __rl: true, mode: 'key', value: 'r32/cat.jpg' },
			...parameters,
		});

	it('a transformed download cut short by a close-delimited answer says sizeConfirmed: false', async () => {
		emulator().setFaults([{ operation: 'cdn', closeDelimited: 1000 }]);
		const result = await transformBig({ transformation: 'image', width: 10, downloadTransformed: true });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ size: 1000, sizeConfirmed: false });
	});

	it('a whole transformed download with a stated length says sizeConfirmed: true', async () => {
		const result = await transformBig({ transformation: 'image', width: 10, downloadTransformed: true });
		expect(result.items[0].json).toMatchObject({ size: bigImage.length, sizeConfirmed: true });
	});

	it('the URL of a key with a "." segment is refused: a URL client would fetch another file', async () => {
		const stored = await runFileStorage(
			emulator(),
			{ resource: 'file', operation: 'upload', key: 'r32/./dot.jpg', visibility: 'public' },
			{ items: [fileItem(bigImage, 'dot.jpg', 'image/jpeg')] },
		);
		expect(stored.error).toBeUndefined();
		const result = await runFileStorage(emulator(), {
			resource: 'file',
			operation: 'transform',
			fileKey: { __rl: true, mode: 'key', value: 'r32/./dot.jpg' },
			transformation: 'image',
			width: 10,
		});
		expect(result.error?.message).toMatch(/'r32\/\.\/dot\.jpg' has a '\.' segment, which its link cannot carry/);
		expect(result.items).toHaveLength(0);
	});

	it('a raw string with a lone surrogate is refused naming Raw Transformation', async () => {
		const result = await transformBig({ transformation: 'raw', rawTransformation: '={{ "tr-w_1\\ud800" }}' });
		expect(result.error?.message).toMatch(/parameter 'Raw Transformation'/);
	});
});
