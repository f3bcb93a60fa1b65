/** docs/node-versions.md names version 3's Part Size default: it must be the node's. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { partSettings, partSizeFieldV3 } from '../../nodes/FileStorage/actions/file/multipartUpload.operation';

const page = readFileSync(join(__dirname, '..', '..', 'docs', 'node-versions.md'), 'utf8');

describe('version 3 defaults as docs/node-versions.md states them', () => {
	it('the Part Size default of version 3 is the one docs/node-versions.md names', () => {
		const stated = /Part Size\s+defaults to (\d+) MiB/.exec(page.replace(/\s+/g, ' '))?.[1];
		expect(stated).toBeDefined();
		expect(partSizeFieldV3.default).toBe(Number(stated));
		expect(partSettings({}, 3).partSizeMiB).toBe(Number(stated));
	});
});
