/**
 * The File Storage node as an AI Agent's tool in real n8n: Manual Trigger → AI Agent, with an
 * OpenAI Chat Model whose credential's Base URL points at a scripted model on 127.0.0.1 (no
 * network), and the File Storage tool set to File → Move with both paths from `$fromAI()`.
 * The model calls the tool, n8n moves the file in the emulator and hands the node's output back
 * to the model, which then answers.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';

import { emulatorClient } from '../emulator/conformance/client';
import { startScriptedModel, type ChatTool, type ScriptedModel } from './scriptedModel';
import { BUCKET, executeWorkflow, importWorkflows, n8nCli, nodeJson, sha256, tail, useRealN8n } from './support';

const WORKFLOW_ID = 'fsE2eAiAgentMove';
const FINAL_MESSAGE = 'Done: inbox/report.pdf is now done/report.pdf.';
const REPORT = Buffer.from(`%PDF-1.4 scripted report ${'x'.repeat(3000)}\n%%EOF\n`);

const n8n = useRealN8n({ workflows: [] });
let model: ScriptedModel;

jest.setTimeout(300000);

beforeAll(async () => {
	const { instance, filesDir } = n8n();
	model = await startScriptedModel({
		toolCall: (tools: ChatTool[]) => ({
			name: tools[0]?.function.name ?? 'no tool offered',
			arguments: { source: 'inbox/report.pdf', destination: 'done/' },
		}),
		finalMessage: FINAL_MESSAGE,
	});
	// A throw-away key for a server that only exists in this test.
	const credentials = path.join(filesDir, 'openai-credential.json');
	await fsp.writeFile(
		credentials,
		JSON.stringify([
			{
				id: 'fsE2eOpenAiCred1',
				name: 'OpenAI (scripted local model)',
				type: 'openAiApi',
				data: { apiKey: 'sk-scripted-test-model', url: model.url },
			},
		]),
	);
	const imported = await n8nCli(instance, ['import:credentials', `--input=${credentials}`]);
	if (imported.code !== 0) throw new Error(`import:credentials failed:\n${tail(imported.output, 30)}`);
	await importWorkflows(instance, [path.join(__dirname, 'workflows', 'ai-agent-move.json')]);
});

afterAll(async () => {
	await model?.stop();
});

/** What n8n sent back to the model as the tool's result: the File Storage node's output items. */
function toolResults(): Array<Record<string, unknown>> {
	const message = model.requests.flatMap((request) => request.messages).find((m) => m.role === 'tool');
	if (typeof message?.content !== 'string')
		throw new Error(`no tool result reached the model: ${JSON.stringify(model.requests)}`);
	return JSON.parse(message.content) as Array<Record<string, unknown>>;
}

it('an AI Agent moves a file with the File Storage tool (File → Move, paths from $fromAI) and gets its key and size back', async () => {
	const { instance, emulator } = n8n();
	const api = emulatorClient(emulator, BUCKET.name, BUCKET.region);
	const put = await api.upload('inbox/report.pdf', REPORT, { contentType: 'application/pdf' });
	expect(put.status).toBe(200);

	const result = await executeWorkflow(instance, WORKFLOW_ID);
	if (result.code !== 0 || result.run?.status !== 'success') {
		throw new Error(`workflow failed (exit ${result.code}):\n${tail(result.output, 60)}`);
	}

	// n8n offered the node as one tool named after the node, its schema made of the two $fromAI() fields.
	const [firstRequest] = model.requests;
	expect(firstRequest.tools?.map((tool) => tool.function.name)).toEqual(['Move_file']);
	expect(firstRequest.tools?.[0].function.parameters).toMatchObject({
		type: 'object',
		properties: { source: { type: 'string' }, destination: { type: 'string' } },
		required: ['source', 'destination'],
	});
	expect(firstRequest.messages.at(-1)).toMatchObject({ role: 'user', content: 'move inbox/report.pdf to done/' });

	// The file moved: the copy is byte-identical, the original is gone.
	expect(await emulator.objectSha256(BUCKET.name, BUCKET.region, 'done/report.pdf')).toBe(sha256(REPORT));
	expect(await emulator.readObject(BUCKET.name, BUCKET.region, 'inbox/report.pdf')).toBeUndefined();

	// The model got the node's output as the tool result, and answered once it had it.
	expect(model.requests).toHaveLength(2);
	expect(toolResults()).toEqual([
		expect.objectContaining({
			key: 'done/report.pdf',
			size: REPORT.length,
			sourceDeleted: true,
			source: expect.objectContaining({ key: 'inbox/report.pdf' }),
		}),
	]);
	expect(nodeJson(result.run, 'AI Agent')).toEqual([{ output: FINAL_MESSAGE }]);

	// Nothing else was asked of the model, and the storage secret never went to it.
	expect(model.unexpected).toEqual([]);
	expect(JSON.stringify(model.requests)).not.toContain(emulator.secretKey);
});
