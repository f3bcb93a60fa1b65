/**
 * `npm run dev`'s banner names every example workflow it imports (scripts/dev/examples.ts), by the
 * name n8n shows, so a new example cannot be imported without being listed.
 */
import { readFileSync } from 'node:fs';

import { bannerWorkflowLines } from '../../scripts/dev/examples';
import { exampleWorkflowFiles } from '../../scripts/real-n8n/instance';

const names = exampleWorkflowFiles().map((file) =>
	String((JSON.parse(readFileSync(file, 'utf8')) as { name: string }).name),
);

it('lists every imported example workflow, one a line, by its name in n8n', () => {
	const lines = bannerWorkflowLines(false);
	expect(names.length).toBeGreaterThanOrEqual(7);
	expect(lines).toHaveLength(names.length);
	names.forEach((name, index) => expect(name).toContain(lines[index].replace(/^ +(workflows +)?/, '')));
	expect(lines.join('\n')).toMatch(/process each new file of inbox\//);
	expect(lines.join('\n')).toMatch(/copy it to archive\//);
	expect(lines[0]).toMatch(/^ {2}workflows {4}\S/);
});

it('in queue mode, says too that the runs are the workers’', () => {
	expect(bannerWorkflowLines(true).slice(-1)[0]).toMatch(/runs on a worker/);
});
