import { request, type IncomingMessage, type ServerResponse } from 'node:http';

import type { Emulator } from '../emulator';
import { useLocalHttpServer } from './localServer';

/** An answer the service gave through the gateway: `late` for a held request handed on after its 504. */
export interface ServiceAnswer {
	req: IncomingMessage;
	status: number;
	late: boolean;
}

export interface LateWriteRules {
	/** Whether to hold this request: answered 504 at once, handed to the service later. */
	holds: (req: IncomingMessage, body: Buffer) => boolean;
	/** When a held request reaches the service: `handOn` sends it. */
	later: (handOn: () => void) => void;
	/** When a held request gets its 504: `answer` sends it (at once when not given). */
	answers?: (answer: () => void) => void;
	/** Every answer the service gave, held requests' late ones included. */
	onAnswer?: (answer: ServiceAnswer) => void;
}

/** Sends a request read whole on to the emulator; with `res`, its answer goes back to the client. */
function forward(emulator: Emulator, req: IncomingMessage, body: Buffer, rules: LateWriteRules, res?: ServerResponse) {
	const target = new URL(emulator.url);
	const upstream = request(
		{ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
		(answer) => {
			const chunks: Buffer[] = [];
			answer.on('data', (chunk: Buffer) => chunks.push(chunk));
			answer.on('end', () => {
				rules.onAnswer?.({ req, status: answer.statusCode ?? 502, late: !res });
				if (!res) return;
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				res.end(Buffer.concat(chunks));
			});
		},
	);
	upstream.on('error', () => res?.destroy());
	upstream.end(body);
}

/**
 * A gateway in front of the emulator whose upstream timeout is shorter than the service's work: a
 * request `holds` picks is answered with its 504 page (at once, or when `answers` says), and handed
 * to the service later (a gateway that does not cancel what it forwarded), so a write the node saw
 * fail lands after all.
 * Every other request goes through. Started for the test file; returns its URL.
 */
export function useLateWriteGateway(emulator: () => Emulator, rules: LateWriteRules): () => string {
	return useLocalHttpServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const body = Buffer.concat(chunks);
			if (!rules.holds(req, body)) return forward(emulator(), req, body, rules, res);
			const answer = () => {
				res.writeHead(504, { 'Content-Type': 'text/html' });
				res.end('<html><body><h1>504 Gateway Time-out</h1></body></html>');
			};
			if (rules.answers) rules.answers(answer);
			else answer();
			rules.later(() => forward(emulator(), req, body, rules));
		});
	});
}
