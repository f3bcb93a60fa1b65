/**
 * The wire contract (docs/openapi/file-storage-api.yaml) as a checker of answers: every response
 * the conformance client receives is validated against the document's schema for its operation
 * and status, so an emulator answer outside the contract fails the test that provoked it.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';

export const CONTRACT_FILE = path.resolve(__dirname, '../../../docs/openapi/file-storage-api.yaml');

interface Operation {
	operationId: string;
	responses: Record<string, { $ref?: string; content?: Record<string, { schema?: unknown }> }>;
}

interface Route {
	method: string;
	pattern: RegExp;
	pointer: string;
	operation: Operation;
}

export interface Answer {
	method: string;
	/** The request target as sent (path and query). */
	target: string;
	status: number;
	headers: Record<string, string | string[] | undefined>;
	body: Buffer;
}

/** JSON pointer escaping (RFC 6901). */
const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

class Contract {
	private readonly ajv = new Ajv({ strict: false, allErrors: true, formats: { binary: true } });
	private readonly routes: Route[] = [];
	private readonly compiled = new Map<string, ValidateFunction>();
	private readonly doc: { paths: Record<string, Record<string, Operation>> } & Record<string, unknown>;

	constructor(file: string) {
		this.doc = parse(readFileSync(file, 'utf8'));
		this.ajv.addSchema(this.doc as object, 'contract');
		for (const [template, item] of Object.entries(this.doc.paths)) {
			// The CDN's {key} spans path segments (see the document), every other parameter is one segment.
			const source = template.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'key' ? '.+' : '[^/]+'));
			for (const method of ['get', 'put', 'post', 'delete']) {
				const operation = item[method];
				if (!operation) continue;
				this.routes.push({
					method: method.toUpperCase(),
					pattern: new RegExp(`^${source}$`),
					pointer: `#/paths/${escape(template)}/${method}`,
					operation,
				});
			}
		}
	}

	operationOf(method: string, target: string): Route | undefined {
		const p = target.split('?')[0];
		return this.routes.find((r) => r.method === method && r.pattern.test(p));
	}

	private validator(pointer: string): ValidateFunction {
		let fn = this.compiled.get(pointer);
		if (!fn) {
			fn = this.ajv.compile({ $ref: `contract${pointer}` });
			this.compiled.set(pointer, fn);
		}
		return fn;
	}

	/** Problems of one answer; empty when it keeps the contract or names no operation of it. */
	problems(a: Answer): string[] {
		const route = this.operationOf(a.method, a.target);
		if (!route) return [];
		const where = `${route.operation.operationId} ${a.status}`;
		const status = String(a.status);
		let response = route.operation.responses[status];
		let pointer = `${route.pointer}/responses/${status}`;
		if (!response) return [`${where}: status ${status} is not in the contract for this operation`];
		if (response.$ref) {
			pointer = response.$ref;
			response = this.resolve(pointer) as typeof response;
		}
		const contentType = String(a.headers['content-type'] ?? '')
			.split(';')[0]
			.trim();
		const media = response.content?.[contentType] ?? response.content?.['*/*'];
		if (!media) {
			if (!response.content && a.body.length === 0) return [];
			return [`${where}: Content-Type "${contentType}" is not in the contract`];
		}
		if (contentType !== 'application/json') return [];
		let json: unknown;
		try {
			json = JSON.parse(a.body.toString('utf8'));
		} catch {
			return [`${where}: the body is not JSON`];
		}
		const validate = this.validator(`${pointer}/content/${escape(contentType)}/schema`);
		if (validate(json)) return [];
		return (validate.errors ?? []).map((e) => `${where}: ${e.instancePath || '(body)'} ${e.message}`);
	}

	private resolve(ref: string): unknown {
		return ref
			.slice(2)
			.split('/')
			.reduce<unknown>(
				(node, seg) => (node as Record<string, unknown>)[seg.replace(/~1/g, '/').replace(/~0/g, '~')],
				this.doc,
			);
	}
}

let loaded: Contract | undefined;
export function contract(): Contract {
	return (loaded ??= new Contract(CONTRACT_FILE));
}

export class ContractViolation extends Error {}

/** Throws when the answer breaks the contract. */
export function assertAnswerKeepsContract(a: Answer): void {
	const problems = contract().problems(a);
	if (problems.length > 0) {
		throw new ContractViolation(
			`answer outside the wire contract (${a.method} ${a.target.split('?')[0]}):\n  ${problems.join('\n  ')}\n  body: ${a.body.toString('utf8').slice(0, 300)}`,
		);
	}
}
