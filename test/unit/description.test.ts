import type { INodeProperties } from 'n8n-workflow';

import { FileStorage } from '../../nodes/FileStorage/FileStorage.node';

const { properties } = new FileStorage().description;

describe('the panel reads like n8n’s own nodes', () => {
	it('every Options collection lists its options alphabetically', () => {
		const collections = properties.filter((property) => property.type === 'collection');
		expect(collections.length).toBeGreaterThan(5);
		for (const collection of collections) {
			const names = (collection.options as INodeProperties[]).map((option) => option.displayName);
			expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
		}
	});

	it('every example placeholder of a text field starts with "e.g."', () => {
		const placeholders = properties.flatMap((property) => [
			...(property.type === 'string' && property.placeholder ? [property.placeholder] : []),
			...(property.modes ?? []).filter((mode) => mode.type === 'string').map((mode) => mode.placeholder ?? ''),
		]);
		expect(placeholders.length).toBeGreaterThan(5);
		for (const placeholder of placeholders) expect(placeholder).toMatch(/^e\.g\. /);
	});
});
