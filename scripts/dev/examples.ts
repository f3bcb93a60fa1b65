/**
 * The example workflows in a dev data folder: all of them on the first start, and on later starts
 * only those added to examples/workflows since (a user's edits of the others stay). The marker file
 * lists the example files imported so far; a marker of an older `npm run dev` (a date only) is
 * completed once by asking n8n which example ids it holds.
 */
import { promises as fsp, readFileSync } from 'node:fs';
import * as path from 'node:path';

import { EXAMPLE_IDS, activateWorkflow, exampleWorkflowFiles, importWorkflows } from '../real-n8n/instance';
import { n8nCliOk, type N8nInstance } from '../real-n8n/n8n';

/** The examples that answer on a production webhook, so they are published (activated) on import. */
const ACTIVE_EXAMPLES: string[] = [EXAMPLE_IDS.webhook, EXAMPLE_IDS.browserUpload];

/** What the dev banner says of each example workflow: its name in n8n, without the shared prefix. */
export function exampleSummaries(files: string[] = exampleWorkflowFiles()): string[] {
	return files.map((file) =>
		String((JSON.parse(readFileSync(file, 'utf8')) as { name: string }).name).replace(/^File Storage example:\s*/, ''),
	);
}

/** The banner's workflows lines: every imported example, so the list cannot fall behind examples/workflows/. */
export function bannerWorkflowLines(queue: boolean, files: string[] = exampleWorkflowFiles()): string[] {
	return [
		...exampleSummaries(files).map(
			(summary, index) => `${index === 0 ? '  workflows    ' : '               '}${summary}`,
		),
		...(queue ? ['               every run (webhook or editor) runs on a worker: see "Worker started execution"'] : []),
	];
}

function idOf(file: string): string {
	return String((JSON.parse(readFileSync(file, 'utf8')) as { id: string }).id);
}

export async function importExamples(instance: N8nInstance, log: (line: string) => void): Promise<void> {
	const marker = path.join(instance.userFolder, '.examples-imported');
	const files = exampleWorkflowFiles();
	const names = files.map((file) => path.basename(file));
	const text = await fsp.readFile(marker, 'utf8').catch(() => undefined);
	const listed = new Set((text ?? '').split(/\s*\n\s*/).filter((line) => line.endsWith('.json')));
	let before = listed;
	if (text !== undefined && listed.size === 0) {
		// An old marker: the example files already in n8n's database, per n8n.
		const ids = new Set((await n8nCliOk(instance, ['list:workflow', '--onlyId'])).stdout.split(/\s+/));
		before = new Set(files.filter((file) => ids.has(idOf(file))).map((file) => path.basename(file)));
	}
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
	if (missing.length > 0 || listed.size === 0) {
		await fsp.writeFile(marker, [new Date().toISOString(), ...names, ''].join('\n'));
	}
}
