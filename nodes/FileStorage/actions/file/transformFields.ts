import type { INodeProperties } from 'n8n-workflow';

import type { Item } from '../../item';
import { transformationProblem, transformationSegment, type Pairs } from '../../transport/transformations';

const show = { resource: ['file'], operation: ['transform'] };
const when = (kind: string[]) => ({ show: { ...show, transformation: kind } });

const choices = (values: string[]) => [
	{ name: 'Unchanged', value: '' },
	...values.map((value) => ({ name: value, value })),
];

/** A whole number field where 0 means "not set". */
function numberField(displayName: string, name: string, description: string, kind: string[]): INodeProperties {
	return { displayName, name, type: 'number', default: 0, description, displayOptions: when(kind) };
}

export const transformFields: INodeProperties[] = [
	{
		displayName: 'Transformation',
		name: 'transformation',
		type: 'options',
		default: 'image',
		description: 'What the CDN makes of the file on the fly',
		options: [
			{ name: 'Document', value: 'document', description: 'Convert a document or pick its pages' },
			{ name: 'Document Thumbnail', value: 'documentThumbnail', description: 'An image of one page' },
			{ name: 'Image', value: 'image', description: 'Resize, crop, convert or compress an image' },
			{
				name: 'Raw',
				value: 'raw',
				description: 'A transformation written in the CDN syntax, e.g. tr-w_200,h_100+e_grayscale',
			},
			{ name: 'Video Thumbnail', value: 'videoThumbnail', description: 'An image of the video at a given second' },
		],
		displayOptions: { show },
	},
	numberField('Width', 'width', 'Width in pixels (w); 0: unchanged', ['image']),
	numberField('Height', 'height', 'Height in pixels (h); 0: unchanged', ['image']),
	{
		displayName: 'Crop',
		name: 'crop',
		type: 'options',
		default: '',
		description: 'How the image is fitted to Width and Height (c)',
		options: choices(['crop', 'fill', 'fit', 'limit', 'pad', 'scale']),
		displayOptions: when(['image']),
	},
	{
		displayName: 'Gravity',
		name: 'gravity',
		type: 'options',
		default: '',
		description: 'Which part of the image a crop keeps (g)',
		options: choices([
			'center',
			'east',
			'face',
			'north',
			'north_east',
			'north_west',
			'south',
			'south_east',
			'south_west',
			'west',
		]),
		displayOptions: when(['image']),
	},
	{
		displayName: 'Format',
		name: 'imageFormat',
		type: 'options',
		default: '',
		description: 'Image format to convert to (f); auto: the best the browser takes',
		options: choices(['auto', 'avif', 'jpeg', 'png', 'webp']),
		displayOptions: when(['image']),
	},
	numberField('Quality', 'quality', 'Quality from 1 to 100 (q); 0: unchanged', ['image']),
	{
		displayName: 'Format',
		name: 'documentFormat',
		type: 'options',
		default: '',
		description: 'Document format to convert to (f)',
		options: choices(['docx', 'pdf', 'pptx', 'xlsx']),
		displayOptions: when(['document']),
	},
	{
		displayName: 'Pages',
		name: 'pages',
		type: 'string',
		default: '',
		placeholder: 'e.g. 1-3',
		description: 'A page (1) or a range of pages (1-3) to keep (p); empty: all',
		displayOptions: when(['document']),
	},
	{
		displayName: 'Page',
		name: 'page',
		type: 'number',
		default: 1,
		description: 'The page to show (pg)',
		displayOptions: when(['documentThumbnail']),
	},
	{
		displayName: 'Second',
		name: 'second',
		type: 'number',
		typeOptions: { numberPrecision: 2 },
		default: 0,
		description: 'The time in the video to show, in seconds (so)',
		displayOptions: when(['videoThumbnail']),
	},
	{
		displayName: 'Raw Transformation',
		name: 'rawTransformation',
		type: 'string',
		default: '',
		placeholder: 'e.g. tr-w_200,h_100+e_grayscale',
		description:
			'The path segment as the CDN reads it: tr- (or thumb-), name_value pairs joined by commas, sets chained with +',
		displayOptions: when(['raw']),
	},
];

/** A whole number in [min, max] or undefined for 0 (not set); else the error naming `label`. */
function whole(item: Item, name: string, label: string, max: number): number | undefined {
	const value = Number(item.param(name, 0));
	if (value === 0) return undefined;
	if (Number.isInteger(value) && value >= 1 && value <= max) return value;
	throw item.fail(
		`The parameter '${label}' must be a whole number from 1 to ${max} (got ${value})`,
		`Set ${label}, or 0 for unchanged.`,
	);
}

function imagePairs(item: Item): Pairs {
	const pairs: Pairs = [];
	const add = (name: string, value: string | number | undefined) => {
		if (value !== undefined && value !== '') pairs.push([name, value]);
	};
	add('w', whole(item, 'width', 'Width', 100_000));
	add('h', whole(item, 'height', 'Height', 100_000));
	add('c', String(item.param('crop', '')));
	add('g', String(item.param('gravity', '')));
	add('f', String(item.param('imageFormat', '')));
	add('q', whole(item, 'quality', 'Quality', 100));
	return pairs;
}

function documentPairs(item: Item): Pairs {
	const pairs: Pairs = [];
	const format = String(item.param('documentFormat', ''));
	if (format) pairs.push(['f', format]);
	const pages = String(item.param('pages', '') ?? '').trim();
	if (pages) {
		if (!/^[1-9]\d*(-[1-9]\d*)?$/.test(pages)) {
			throw item.fail(
				`The parameter 'Pages' is "${pages.slice(0, 40)}", not a page or a range`,
				'Write one page (2) or a range (1-3).',
			);
		}
		pairs.push(['p', pages]);
	}
	return pairs;
}

/** The page of a document thumbnail: pages count from 1, so 0 is no page (it is refused, not read as 1). */
function pageOf(item: Item): number {
	const page = Number(item.param('page', 1));
	if (Number.isInteger(page) && page >= 1 && page <= 100_000) return page;
	throw item.fail(
		`The parameter 'Page' must be a whole number from 1 to 100000 (got ${page})`,
		'Set the page to show; pages count from 1 (the first page is 1).',
	);
}

/** The second as the CDN writes it: always with a decimal point (`5.0`, `2.5`). */
function secondOf(item: Item): string {
	const second = Number(item.param('second', 0));
	if (!Number.isFinite(second) || second < 0) {
		throw item.fail(
			`The parameter 'Second' must be 0 or more (got ${second})`,
			'Set the time in the video, in seconds.',
		);
	}
	return Number.isInteger(second) ? second.toFixed(1) : String(second);
}

/** The transformation segment the item's fields describe. */
export function segmentOf(item: Item): string {
	const kind = String(item.param('transformation', 'image'));
	if (kind === 'raw') {
		const raw = String(item.param('rawTransformation', '') ?? '').trim();
		const problem = raw ? transformationProblem(raw) : 'it is empty';
		if (problem) {
			throw item.fail(
				`The parameter 'Raw Transformation' is not valid: ${problem}`,
				'Write it as the CDN reads it, e.g. tr-w_200,h_100+e_grayscale.',
			);
		}
		return raw;
	}
	if (kind === 'videoThumbnail') return transformationSegment('thumb', [[['so', secondOf(item)]]]);
	if (kind === 'documentThumbnail') {
		return transformationSegment('thumb', [[['pg', pageOf(item)]]]);
	}
	const pairs = kind === 'document' ? documentPairs(item) : imagePairs(item);
	if (pairs.length === 0) {
		throw item.fail(
			'No transformation is set',
			`Set at least one field of the ${kind === 'document' ? 'document' : 'image'} transformation.`,
		);
	}
	return transformationSegment('tr', [pairs]);
}
