import type { INodeProperties } from 'n8n-workflow';

import type { Item } from '../../item';
import { textUploadSource, type UploadSource } from '../../upload/uploadSource';

export const TEXT_FILE_NAME_FIELD = 'File Name';

/** The fields of Upload's Source Text; their own conditions, added to Source = Text and the operation. */
export const textFields: INodeProperties[] = [
	{
		displayName: 'Upload Item JSON',
		name: 'textItemJson',
		type: 'boolean',
		default: false,
		description: "Whether to upload the input item's JSON instead of a text, stored as a JSON file",
	},
	{
		displayName: 'Text',
		name: 'text',
		type: 'string',
		typeOptions: { rows: 5 },
		default: '',
		placeholder: 'e.g. Hello from n8n',
		description: 'The content of the file, stored as UTF-8',
		displayOptions: { show: { textItemJson: [false] } },
	},
	// One name: Path in Folder names a text's file, as for every source. File Name, which once stood
	// in for an empty Path in Folder, is offered only where a saved workflow filled it (it still
	// names the file there: a hidden parameter's value is dropped at run time). Typing a path in
	// Path in Folder takes its place; with an expression there, the saved File Name is kept, as the
	// expression may give no name at run time.
	{
		displayName: TEXT_FILE_NAME_FIELD,
		name: 'textFileName',
		type: 'string',
		default: '',
		placeholder: 'e.g. notes.txt',
		hint: 'From an earlier release: names the file only while Path in Folder (below) is empty. Type the name in Path in Folder instead and this field goes away.',
		description: "The file's name and path under Folder when Path in Folder is empty",
		displayOptions: {
			show: { textFileName: [{ _cnd: { exists: true } }] },
			hide: { key: [{ _cnd: { regex: '^[^=]' } }] },
		},
	},
	{
		displayName: 'MIME Type',
		name: 'textMimeType',
		type: 'string',
		default: 'text/plain',
		placeholder: 'e.g. text/csv',
		description: 'The content type the file is stored with',
		displayOptions: { show: { textItemJson: [false] } },
	},
];

/** The Text parameter as text; an expression that gives an object would be stored as "[object Object]". */
function textOf(item: Item): string {
	const text = item.param('text', '') ?? '';
	if (typeof text !== 'object') return String(text);
	throw item.fail(
		`The parameter 'Text' is ${Array.isArray(text) ? 'an array' : 'an object'}, not text`,
		'Make the expression give text, e.g. {{ JSON.stringify($json.body) }}, or turn on Upload Item JSON to store the whole item as JSON.',
	);
}

/** Source Text: the Text parameter or the item's JSON, with the key it gives. */
export function openTextSource(
	item: Item,
	readKey: (item: Item, fileName: string | undefined, from: string) => string,
): { source: UploadSource; key: string } {
	const itemJson = item.param('textItemJson', false) === true;
	const content = itemJson ? JSON.stringify(item.input().json) : textOf(item);
	if (!content) {
		throw item.fail(
			"The parameter 'Text' is empty",
			"There is nothing to upload: enter the file's content in Text, or turn on Upload Item JSON.",
		);
	}
	const fileName = String(item.param('textFileName', '') ?? '').trim() || undefined;
	const mimeType = itemJson
		? 'application/json'
		: String(item.param('textMimeType', 'text/plain') ?? '').trim() || 'text/plain';
	const label = itemJson ? "the input item's JSON" : "the parameter 'Text'";
	const source = textUploadSource(item.ctx, { content, label, fileName, mimeType, itemJson });
	return { source, key: readKey(item, fileName, itemJson ? "item's JSON" : 'text') };
}
