// Lints the shipped sources with exactly the configuration n8n's community package
// scanner uses (its own rules plus eslint-plugin-n8n-nodes-base), so a clean lint here
// means a clean verification there.
import { buildScanConfig } from '@n8n/scan-community-package/scanner/scanner.mjs';

export default [
	{ ignores: ['dist/**', 'node_modules/**', 'test/**', 'scripts/**', '.cache/**', '*.mjs', '*.js'] },
	...(await buildScanConfig()),
];
