/**
 * Finds file-system and environment access in built JavaScript, which n8n's verification forbids
 * to community nodes ("must not interact with environment variables or attempt to read/write
 * files"). It reads the syntax tree, not the text, so comments and strings that only mention a
 * name do not count, and a call spelled another way (helpers['writeContentToFile']) still does.
 */
import * as ts from 'typescript';

/** Node.js modules that reach the disk, the environment or other processes. */
const MODULES = new Set(['fs', 'fs/promises', 'os', 'child_process', 'worker_threads', 'cluster', 'process', 'v8']);

/** n8n's file helpers (and Node.js's file functions, in case one is reached some other way). */
const FILE_NAMES = new Set([
	'createReadStream',
	'writeContentToFile',
	'resolvePath',
	'isFilePathBlocked',
	'getStoragePath',
	'createWriteStream',
	'readFile',
	'readFileSync',
	'writeFile',
	'writeFileSync',
	'openSync',
]);

function bannedModule(specifier: string): boolean {
	const name = specifier.replace(/^node:/, '');
	return MODULES.has(name) || name.startsWith('fs/');
}

function isProcess(node: ts.Node): boolean {
	if (ts.isIdentifier(node)) return node.text === 'process';
	return ts.isPropertyAccessExpression(node) && node.name.text === 'process';
}

function moduleOf(node: ts.Node): string | undefined {
	if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) return node.moduleSpecifier.text;
	if (!ts.isCallExpression(node) || node.arguments.length === 0) return undefined;
	const [first] = node.arguments;
	const loader =
		node.expression.kind === ts.SyntaxKind.ImportKeyword ||
		(ts.isIdentifier(node.expression) && node.expression.text === 'require');
	return loader && ts.isStringLiteralLike(first) ? first.text : undefined;
}

/** What one node of the tree does that is forbidden, if anything. */
function findingOf(node: ts.Node): string | undefined {
	const loaded = moduleOf(node);
	if (loaded !== undefined && bannedModule(loaded)) return `loads the module '${loaded}'`;
	if (ts.isPropertyAccessExpression(node) && node.name.text === 'env' && isProcess(node.expression)) {
		return 'reads process.env';
	}
	if (ts.isElementAccessExpression(node) && isProcess(node.expression)) return 'reads a property of process by name';
	if (ts.isVariableDeclaration(node) && ts.isObjectBindingPattern(node.name) && node.initializer) {
		if (isProcess(node.initializer)) return 'destructures process';
	}
	if ((ts.isIdentifier(node) || ts.isStringLiteralLike(node)) && FILE_NAMES.has(node.text)) {
		return `uses ${node.text}`;
	}
	return undefined;
}

/** Each forbidden access in `text`, as "<file>:<line>: <what>". */
export function fileAccessFindings(fileName: string, text: string): string[] {
	const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
	const findings: string[] = [];
	const visit = (node: ts.Node) => {
		const finding = findingOf(node);
		if (finding) {
			const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
			findings.push(`${fileName}:${line}: ${finding}`);
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return findings;
}
