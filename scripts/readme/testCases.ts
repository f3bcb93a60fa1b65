/**
 * The tests of a Jest file and whether each one runs, read from its syntax tree: a title in a
 * comment or inside a string is not a test, and a test that is skipped, a todo, inverted
 * (`.failing`) or switched off by `.only` elsewhere proves nothing. The README claims check
 * (claims.ts) uses this to refuse citations of such tests.
 */
import ts from 'typescript';

/**
 * - `runs`: always runs (as far as the file says);
 * - `conditional`: runs or is skipped depending on a value known only at run time
 *   (`(cond ? it : it.skip)(…)`, `const onDisk = mounted ? describe : describe.skip`);
 * - `skipped`, `todo`, `failing`: never proves its title (`.failing` passes when the test fails).
 */
export type TestRun = 'runs' | 'conditional' | 'skipped' | 'todo' | 'failing';

export interface TestCase {
	/** As written, escapes undone; an `it.each` title is its template, `%s` and all. */
	title: string;
	run: TestRun;
	/** Why it does not always run, in the file's own words (e.g. "describe.skip", "mounted ? describe : describe.skip"). */
	why?: string;
	/** 1-based line of the call. */
	line: number;
}

interface Callee {
	kind: 'test' | 'describe';
	run: TestRun;
	why?: string;
	focused: boolean;
}

/** Jest's test and describe functions: an `x` in front skips, an `f` focuses as `.only` does. */
const GLOBALS = new Set(['it', 'test', 'xit', 'xtest', 'fit', 'describe', 'xdescribe', 'fdescribe']);

const MODIFIERS: Record<string, TestRun | 'only' | 'same'> = {
	skip: 'skipped',
	todo: 'todo',
	failing: 'failing',
	only: 'only',
	concurrent: 'same',
};

/** Worse first: a test inside a skipped describe is skipped whatever it says itself. */
const SEVERITY: TestRun[] = ['skipped', 'todo', 'failing', 'conditional', 'runs'];

function combine(a: Pick<Callee, 'run' | 'why'>, b: Pick<Callee, 'run' | 'why'>): Pick<Callee, 'run' | 'why'> {
	if (a.run === 'conditional' && b.run === 'conditional') return { run: 'conditional', why: `${b.why}; ${a.why}` };
	return SEVERITY.indexOf(a.run) <= SEVERITY.indexOf(b.run) ? a : b;
}

function unwrap(node: ts.Expression): ts.Expression {
	while (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isNonNullExpression(node))
		node = node.expression;
	return node;
}

/** The string a title argument spells, when it is a literal (or literals joined with +). */
function literalText(node: ts.Expression, file: ts.SourceFile): string | undefined {
	node = unwrap(node);
	if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
	// A template with `${…}` is kept as written, so a citation can quote its fixed parts.
	if (ts.isTemplateExpression(node)) return node.getText(file).slice(1, -1);
	if (!ts.isBinaryExpression(node) || node.operatorToken.kind !== ts.SyntaxKind.PlusToken) return undefined;
	const [left, right] = [literalText(node.left, file), literalText(node.right, file)];
	return left === undefined || right === undefined ? undefined : left + right;
}

/** Reads the tests of one file. */
export function testCases(source: string, fileName = 'file.test.ts'): TestCase[] {
	const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
	const aliases = new Map<string, ts.Expression>();
	const visitDeclarations = (node: ts.Node): void => {
		if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer)
			aliases.set(node.name.text, node.initializer);
		ts.forEachChild(node, visitDeclarations);
	};
	visitDeclarations(file);

	const classify = (node: ts.Expression, seen: Set<string> = new Set()): Callee | undefined => {
		node = unwrap(node);
		if (ts.isIdentifier(node)) {
			const name = node.text;
			if (GLOBALS.has(name)) {
				const why = name.startsWith('x') ? name : undefined;
				const kind = name.endsWith('describe') ? 'describe' : 'test';
				return { kind, run: why ? 'skipped' : 'runs', why, focused: name.startsWith('f') };
			}
			const alias = aliases.get(name);
			return alias && !seen.has(name) ? classify(alias, new Set(seen).add(name)) : undefined;
		}
		if (ts.isPropertyAccessExpression(node)) {
			const base = classify(node.expression, seen);
			const modifier = MODIFIERS[node.name.text];
			if (!base || !modifier) return undefined;
			if (modifier === 'same') return base;
			if (modifier === 'only') return { ...base, focused: true };
			return { ...base, ...combine(base, { run: modifier, why: node.getText(file) }) };
		}
		// it.each(table)(title, fn) and it.each`table`(title, fn): the title belongs to the second call.
		if (ts.isCallExpression(node) || ts.isTaggedTemplateExpression(node)) {
			const table = ts.isCallExpression(node) ? node.expression : node.tag;
			const each = ts.isPropertyAccessExpression(table) && table.name.text === 'each';
			return each ? classify(table.expression, seen) : undefined;
		}
		if (ts.isConditionalExpression(node)) {
			const yes = classify(node.whenTrue, seen);
			const no = classify(node.whenFalse, seen);
			if (!yes || !no || yes.kind !== no.kind) return undefined;
			const running = [yes, no].filter((callee) => callee.run === 'runs' || callee.run === 'conditional');
			const why = node.getText(file).replace(/\s+/g, ' ');
			if (running.length === 2) return { ...yes, ...combine(yes, no) };
			if (running.length === 0) return { kind: yes.kind, run: 'skipped', why, focused: false };
			const focused = yes.focused || no.focused;
			return { kind: yes.kind, focused, ...combine(running[0], { run: 'conditional', why }) };
		}
		return undefined;
	};

	const found: (TestCase & { focused: boolean })[] = [];
	/** `outer`: the describe calls around the node, innermost first, that decide whether it runs. */
	const visit = (node: ts.Node, outer: Callee[]): void => {
		const callee = ts.isCallExpression(node) && node.arguments.length > 0 ? classify(node.expression) : undefined;
		if (callee && ts.isCallExpression(node)) {
			const title = callee.kind === 'test' ? literalText(node.arguments[0], file) : undefined;
			if (title !== undefined)
				found.push({
					title,
					...outer.reduce(combine, { run: callee.run, why: callee.why }),
					line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1,
					focused: callee.focused || outer.some((describe) => describe.focused),
				});
			if (callee.kind === 'describe') {
				visit(node.expression, outer);
				for (const argument of node.arguments) visit(argument, [callee, ...outer]);
				return;
			}
		}
		ts.forEachChild(node, (child) => visit(child, outer));
	};
	visit(file, []);

	// `.only` anywhere in the file makes Jest skip every test outside it.
	const focusing = found.some((test) => test.focused);
	return found.map(({ focused, ...test }) =>
		focusing && !focused && test.run !== 'skipped'
			? { ...test, run: 'skipped', why: '.only elsewhere in the file' }
			: test,
	);
}

/** The titles of the `it` / `test` calls of a test file, as written (escapes undone). */
export function testTitles(source: string): string[] {
	return testCases(source).map((test) => test.title);
}
