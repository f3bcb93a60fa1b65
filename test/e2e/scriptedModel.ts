/**
 * A scripted stand-in for an OpenAI-compatible chat model on 127.0.0.1: its first answer calls a
 * tool, its answer once a tool result came back is a fixed message. Every request is kept, so a
 * test can see the tools n8n offered and the tool result it sent back.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatMessage {
	role: string;
	content?: unknown;
	tool_call_id?: string;
	tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
}

export interface ChatTool {
	type: string;
	function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

export interface ChatRequest {
	model?: string;
	stream?: boolean;
	messages: ChatMessage[];
	tools?: ChatTool[];
}

export interface ScriptedModel {
	/** The base URL to give the OpenAI credential (`.../v1`). */
	url: string;
	/** Every `POST /v1/chat/completions` body, in order. */
	requests: ChatRequest[];
	/** Every other request, method and path: none is expected. */
	unexpected: string[];
	stop(): Promise<void>;
}

export interface Script {
	/** Which offered tool to call, and with what arguments. */
	toolCall(tools: ChatTool[]): { name: string; arguments: Record<string, unknown> };
	finalMessage: string;
}

const MODEL = 'scripted-model';

export async function startScriptedModel(script: Script): Promise<ScriptedModel> {
	const requests: ChatRequest[] = [];
	const unexpected: string[] = [];
	const server = createServer((req, res) => {
		void handle(req, res).catch((error: unknown) => {
			res.writeHead(500, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ error: { message: String(error) } }));
		});
	});

	async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const path = (req.url ?? '').split('?')[0];
		if (req.method === 'GET' && path === '/v1/models') {
			return json(res, { object: 'list', data: [{ id: MODEL, object: 'model', owned_by: 'test' }] });
		}
		if (req.method !== 'POST' || path !== '/v1/chat/completions') {
			unexpected.push(`${req.method} ${req.url}`);
			return json(res, { error: { message: 'not found' } }, 404);
		}
		const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest;
		requests.push(body);
		// n8n's agent asks without streaming when run headless; a stream would need another script.
		if (body.stream) return json(res, { error: { message: 'this scripted model does not stream' } }, 400);
		const toolResultCame = body.messages.some((message) => message.role === 'tool');
		const message: ChatMessage = toolResultCame
			? { role: 'assistant', content: script.finalMessage }
			: (() => {
					const call = script.toolCall(body.tools ?? []);
					return {
						role: 'assistant',
						content: null,
						tool_calls: [
							{
								id: `call_${requests.length}`,
								type: 'function',
								function: { name: call.name, arguments: JSON.stringify(call.arguments) },
							},
						],
					};
				})();
		const finishReason = toolResultCame ? 'stop' : 'tool_calls';
		return json(res, {
			id: `chatcmpl-${requests.length}`,
			object: 'chat.completion',
			created: Math.floor(Date.now() / 1000),
			model: body.model ?? MODEL,
			choices: [{ index: 0, message, finish_reason: finishReason }],
			usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
		});
	}

	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/v1`,
		requests,
		unexpected,
		stop: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

function json(res: ServerResponse, body: unknown, status = 200): void {
	res.writeHead(status, { 'content-type': 'application/json' });
	res.end(JSON.stringify(body));
}
