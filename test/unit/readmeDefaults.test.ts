/** docs/node-versions.md names version 3's Part Size default: it must be the node's. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { partSettings } from '../../nodes/FileStorage/actions/file/multipartUpload.operation';
import { FileStorage } from '../../nodes/FileStorage/FileStorage.node';
import { nodeVersion } from '../../nodes/FileStorage/versions';

const page = readFileSync(join(__dirname, '..', '..', 'docs', 'node-versions.md'), 'utf8');

describe('version 3 defaults as docs/node-versions.md states them', () => {
	it('the Part Size default of version 3 is the one docs/node-versions.md names', () => {
		const stated = /Part Size\s+defaults to (\d+) MiB/.exec(page.replace(/\s+/g, ' '))?.[1];
		expect(stated).toBeDefined();
		// The field Multipart Upload shows from version 3 on, and what the node uses when it is unset.
		const shownFrom3 = new FileStorage().description.properties.filter(
			(p) =>
				p.name === 'partSize' &&
				JSON.stringify(p.displayOptions?.show?.['@version']) === JSON.stringify([{ _cnd: { gte: 3 } }]),
		);
		expect(shownFrom3).toHaveLength(1);
		expect(shownFrom3[0].default).toBe(Number(stated));
		expect(partSettings({}, nodeVersion(3)).partSizeMiB).toBe(Number(stated));
	});
});
