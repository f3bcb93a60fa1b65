import type { IDisplayOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { Item } from '../../item';

/**
 * File Path (Source of Upload and Multipart Upload, Destination of Download) was removed, a
 * breaking change of the 0.x package: n8n's verification rule forbids community nodes to read
 * or write files. The value stays a valid option, disabled, so a saved workflow that holds it
 * still opens in the editor without an "is not supported" issue, and fails on run with words
 * that say what to use instead. A disabled option cannot be picked in the list, so new
 * workflows never get it.
 */
export const REMOVED_FILE_PATH = 'filePath';

const SOURCE_INSTEAD =
	"Read the file with n8n's Read/Write Files from Disk node and choose Source Binary Field: with n8n's binary data mode set to filesystem, the file is streamed into the binary store and uploaded in parts, never held whole in memory. For a file served over HTTP, choose Source URL.";

const DESTINATION_INSTEAD =
	"Choose Destination Binary Field and write the file with n8n's Read/Write Files from Disk node. To hand a file too large for n8n's binary store on to another service, use Get Signed URL and let that service fetch it.";

export function removedFilePathOption(direction: 'source' | 'destination'): INodePropertyOptions {
	return {
		name: 'File Path (Removed)',
		value: REMOVED_FILE_PATH,
		disabled: true,
		description:
			direction === 'source'
				? 'Removed: community nodes may not read files. Use Binary Field (after Read/Write Files from Disk) or URL.'
				: 'Removed: community nodes may not write files. Use Binary Field, then Read/Write Files from Disk.',
	};
}

/** Shown on a saved workflow that still holds File Path, so the editor says it before a run does. */
export function removedFilePathNotice(
	direction: 'source' | 'destination',
	show: NonNullable<IDisplayOptions['show']>,
): INodeProperties {
	const words = direction === 'source' ? SOURCE_INSTEAD : DESTINATION_INSTEAD;
	return {
		displayName: `File Path was removed: this node no longer touches files on the n8n host. ${words}`,
		name: direction === 'source' ? 'sourceFilePathRemoved' : 'destinationFilePathRemoved',
		type: 'notice',
		default: '',
		displayOptions: { show: { ...show, [direction]: [REMOVED_FILE_PATH] } },
	};
}

/** Fails the item when the given parameter still holds File Path; called before any request. */
export function refuseFilePath(item: Item, direction: 'source' | 'destination'): void {
	if (item.param(direction, 'binary') !== REMOVED_FILE_PATH) return;
	const [label, verb, instead] =
		direction === 'source' ? ['Source', 'reads', SOURCE_INSTEAD] : ['Destination', 'writes', DESTINATION_INSTEAD];
	throw item.fail(`${label} 'File Path' was removed: this node no longer ${verb} files on the n8n host`, instead);
}
