import type { INodePropertyOptions } from 'n8n-workflow';

import { FileStorage } from '../../nodes/FileStorage/FileStorage.node';

const { description } = new FileStorage();

/** Option name by value, for a parameter shown for `resource` (or for every resource). */
function optionNames(name: string, resource?: string): Map<string, string> {
	const names = new Map<string, string>();
	for (const property of description.properties) {
		// A resource listed plainly, or by an equality condition (the step-by-step operations').
		const shownFor = property.displayOptions?.show?.resource?.map((value) =>
			typeof value === 'object' && value !== null && '_cnd' in value ? (value._cnd as { eq?: unknown }).eq : value,
		);
		if (property.name !== name || (resource && shownFor && !shownFor.includes(resource))) continue;
		for (const option of property.options as INodePropertyOptions[]) names.set(String(option.value), option.name);
	}
	return names;
}

/** The subtitle expression evaluated as the editor does for the given parameters. */
function subtitleFor(resource: string, operation: string): unknown {
	const body = String(description.subtitle)
		.replace(/^=\{\{/, '')
		.replace(/\}\}$/, '');
	// eslint-disable-next-line @typescript-eslint/no-implied-eval
	return new Function('$parameter', `return (${body});`)({ resource, operation });
}

describe('canvas subtitle', () => {
	const cases = [...optionNames('resource')].flatMap(([resource, resourceName]) =>
		[...optionNames('operation', resource)].map(([operation, operationName]) => [
			resource,
			operation,
			`${operationName}: ${resourceName}`,
		]),
	);

	it('covers every operation of every resource', () => {
		expect(cases.length).toBe(19);
	});

	it.each(cases)('%s / %s reads "%s", the names the panel shows', (resource, operation, expected) => {
		expect(subtitleFor(resource, operation)).toBe(expected);
	});
});
