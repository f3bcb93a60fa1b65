/**
 * Review 3: the README (section "Node versions", and "Memory bound of Multipart Upload": "At the
 * defaults (96 MiB, Threshold 32 MiB, Part Size 16 MiB) that is 96 MiB per run") and the CHANGELOG
 * promise version 3's Part Size default of 16 MiB; the node sends 24 MiB parts (commit b416b36).
 * With 24 MiB parts, Upload Memory 96 MiB holds 4 parts of one file at once, not 6.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { partSettings, partSizeFieldV3 } from '../../nodes/FileStorage/actions/file/multipartUpload.operation';

const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');

describe('review 3: version 3 defaults as the README states them', () => {
	it('the Part Size default of version 3 is the one the README names', () => {
		const stated = /Part Size\s+defaults to (\d+) MiB/.exec(readme.replace(/\s+/g, ' '))?.[1];
		expect(stated).toBeDefined();
		expect(partSizeFieldV3.default).toBe(Number(stated));
		expect(partSettings({}, 3).partSizeMiB).toBe(Number(stated));
	});
});
