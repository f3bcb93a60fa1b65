/**
 * The example workflows in a dev data folder: all of them on the first start, and on later starts
 * only those added to examples/workflows since (a user's edits of the others stay). The marker file
 * lists the example files imported so far; a marker of an older `npm run dev` (a date only) is
 * completed once by asking n8n which example ids it holds.
 */
import { existsSync, promises as fsp, readFileSync } from 'node:fs';
import * as path from 'node:path';

import { EXAMPLE_IDS, activateWorkflow, exampleWorkflowFiles, importWorkflows } from '../real-n8n/instance';
import { n8nCliOk, type N8nInstance } from '../real-n8n/n8n';

/** The examples that answer on a production webhook, so they are published (activated) on import. */
const ACTIVE_EXAMPLES: string[] = [EXAMPLE_IDS.webhook, EXAMPLE_IDS.browserUpload];

function idOf(file: string): string {
	return String((JSON.parse(readFileSync(file, 'utf8')) as { id: string }).id);
}

/** The example files already in n8n's database, per the marker, or per n8n for an old marker. */
async function importedBefore(instance: N8nInstance, marker: string, files: string[]): Promise<Set<string>> {
	const lines = (await fsp.readFile(marker, 'utf8')).split('\n').map((line) => line.trim());
	const listed = lines.filter((line) => line.endsWith('.json'));
	if (listed.length > 0) return new Set(listed);
	const { stdout } = await n8nCliOk(instance, ['list:workflow', '--onlyId']);
	const ids = new Set(stdout.split(/\s+/));
	return new Set(files.filter((file) => ids.has(idOf(file))).map((file) => path.basename(file)));
}

async function markerLists(marker: string): Promise<boolean> {
	return (await fsp.readFile(marker, 'utf8').catch(() => '')).includes('.json');
}

export async function importExamples(instance: N8nInstance, log: (line: string) => void): Promise<void> {
	const marker = path.join(instance.userFolder, '.examples-imported');
	const files = exampleWorkflowFiles();
	const before = existsSync(marker) ? await importedBefore(instance, marker, files) : new Set<string>();
	const missing = files.filter((file) => !before.has(path.basename(file)));
	if (missing.length > 0) {
		log(
			before.size === 0
				? 'importing the example workflows'
				: `importing the example workflows added since: ${missing.map((file) => path.basename(file)).join(', ')}`,
		);
		await importWorkflows(instance, missing);
		for (const id of missing.map(idOf).filter((id) => ACTIVE_EXAMPLES.includes(id))) {
			await activateWorkflow(instance, id);
		}
	}
	const names = files.map((file) => path.basename(file));
	if (missing.length > 0 || names.some((name) => !before.has(name)) || !(await markerLists(marker))) {
		await fsp.writeFile(marker, [new Date().toISOString(), ...names, ''].join('\n'));
	}
}
