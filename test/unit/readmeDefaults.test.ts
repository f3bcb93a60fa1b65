/** docs/node-versions.md names version 3's Part Size default: it must be the node's. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { partSettings } from '../../nodes/FileStorage/actions/file/multipartUpload.operation';
import { FileStorage } from '../../nodes/FileStorage/FileStorage.node';
import { nodeVersion, triggerVersion } from '../../nodes/FileStorage/versions';

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

describe('every default docs/node-versions.md names is the table of versions’ one', () => {
	const text = page.replace(/\s+/g, ' ');
	const stated = (pattern: RegExp) => Number(pattern.exec(text)?.[1]);

	it('version 3’s Parallel Requests, Upload Memory and Multipart Threshold, and versions 1 and 2’s threshold', () => {
		expect(stated(/\*\*Parallel Requests\*\* \(option, default (\d+)/)).toBe(nodeVersion(3).parallelItems?.requests);
		expect(stated(/\*\*Upload Memory \(MiB\)\*\* \(option, default (\d+)/)).toBe(
			nodeVersion(3).parallelItems?.uploadMemoryMiB,
		);
		expect(stated(/switches to parts above (\d+) MiB/)).toBe(nodeVersion(3).multipartThresholdMiB);
		expect(stated(/\((\d+) MiB in versions 1 and 2\)/)).toBe(nodeVersion(2).multipartThresholdMiB);
		expect(nodeVersion(1).multipartThresholdMiB).toBe(nodeVersion(2).multipartThresholdMiB);
	});

	it('the trigger’s Parallel Requests of version 2', () => {
		expect(stated(/Download File \(\*\*Parallel Requests\*\*, default (\d+)\)/)).toBe(
			triggerVersion(2).downloadParallelRequests,
		);
	});
});
