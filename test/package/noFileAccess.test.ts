/**
 * The BUILT package (what n8n loads and its verification reviews) has no file-system or
 * environment access: every .js file under dist/nodes and dist/credentials is read as a syntax
 * tree (fileAccess.ts). `npm test` builds dist first.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

import { fileAccessFindings } from './fileAccess';

const root = join(__dirname, '..', '..');

function builtFiles(folder: string): string[] {
	return readdirSync(join(root, 'dist', folder), { recursive: true })
		.map(String)
		.filter((name) => name.endsWith('.js'))
		.map((name) => join(root, 'dist', folder, name));
}

describe('the scanner finds file and environment access', () => {
	it.each([
		['const fs_1 = require("fs");', "loads the module 'fs'"],
		["const p = require('node:fs/promises');", "loads the module 'node:fs/promises'"],
		['import { homedir } from "os";', "loads the module 'os'"],
		['const c = await import("node:child_process");', "loads the module 'node:child_process'"],
		['const key = process.env.SECRET;', 'reads process.env'],
		['const key = globalThis.process.env.SECRET;', 'reads process.env'],
		['const key = process["env"].SECRET;', 'reads a property of process by name'],
		['const { env } = process;', 'destructures process'],
		['await this.helpers.writeContentToFile(path, body);', 'uses writeContentToFile'],
		["const s = await ctx.helpers['createReadStream'](path);", 'uses createReadStream'],
		['const blocked = helpers.isFilePathBlocked(path);', 'uses isFilePathBlocked'],
		['const { resolvePath } = this.helpers;', 'uses resolvePath'],
	])('%s', (code, finding) => {
		expect(fileAccessFindings('sample.js', code)).toEqual([`sample.js:1: ${finding}`]);
	});

	it('words in comments and strings, and other modules, are not findings', () => {
		const code = [
			"// n8n's writeContentToFile and process.env are not used here",
			'/* require("fs") */',
			'const url = "https://example.com/fs?env=1";',
			'const crypto_1 = require("crypto");',
			'const hash = require("node:crypto").createHash("sha256");',
			'process.nextTick(() => {});',
		].join('\n');
		expect(fileAccessFindings('clean.js', code)).toEqual([]);
	});
});

describe('the built package', () => {
	it.each(['nodes', 'credentials'])('dist/%s reads no files and no environment', (folder) => {
		const files = builtFiles(folder);
		expect(files.length).toBeGreaterThan(0);
		const findings = files.flatMap((file) => fileAccessFindings(relative(root, file), readFileSync(file, 'utf8')));
		expect(findings).toEqual([]);
	});
});
