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

const BASES: Record<string, Omit<Callee, 'why'>> = {
	it: { kind: 'test', run: 'runs', focused: false },
	test: { kind: 'test', run: 'runs', focused: false },
	xit: { kind: 'test', run: 'skipped', focused: false },
	xtest: { kind: 'test', run: 'skipped', focused: false },
	fit: { kind: 'test', run: 'runs', focused: true },
	describe: { kind: 'describe', run: 'runs', focused: false },
	xdescribe: { kind: 'describe', run: 'skipped', focused: false },
	fdescribe: { kind: 'describe', run: 'runs', focused: true },
};

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
	if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
		const left = literalText(node.left, file);
		const right = literalText(node.right, file);
		return left === undefined || right === undefined ? undefined : left + right;
	}
	return undefined;
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
			const base = BASES[node.text];
			if (base) return { ...base, why: base.run === 'skipped' ? node.text : undefined };
			const alias = aliases.get(node.text);
			if (!alias || seen.has(node.text)) return undefined;
			return classify(alias, new Set(seen).add(node.text));
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
		const table = ts.isCallExpression(node)
			? node.expression
			: ts.isTaggedTemplateExpression(node)
				? node.tag
				: undefined;
		if (table && ts.isPropertyAccessExpression(table) && table.name.text === 'each')
			return classify(table.expression, seen);
		if (ts.isConditionalExpression(node)) {
			const yes = classify(node.whenTrue, seen);
			const no = classify(node.whenFalse, seen);
			if (!yes || !no || yes.kind !== no.kind) return undefined;
			const runs = [yes.run, no.run].filter((run) => run === 'runs' || run === 'conditional').length;
			const why = node.getText(file).replace(/\s+/g, ' ');
			if (runs === 2) return { ...yes, ...combine(yes, no) };
			if (runs === 0) return { kind: yes.kind, run: 'skipped', why, focused: false };
			const branch = [yes, no].find((callee) => callee.run === 'conditional');
			return {
				kind: yes.kind,
				run: 'conditional',
				why: branch ? `${why}; ${branch.why}` : why,
				focused: yes.focused || no.focused,
			};
		}
		return undefined;
	};

	/** The describe calls around a node, innermost first, that decide whether it runs. */
	const enclosing = (node: ts.Node): Callee[] => {
		const found: Callee[] = [];
		for (let child = node, parent = node.parent; parent; child = parent, parent = parent.parent) {
			if (ts.isCallExpression(parent) && parent.arguments.includes(child as ts.Expression)) {
				const callee = classify(parent.expression);
				if (callee?.kind === 'describe') found.push(callee);
			}
		}
		return found;
	};

	const found: (TestCase & { focused: boolean })[] = [];
	const visit = (node: ts.Node): void => {
		if (ts.isCallExpression(node) && node.arguments.length > 0) {
			const callee = classify(node.expression);
			const title = callee?.kind === 'test' ? literalText(node.arguments[0], file) : undefined;
			if (callee && title !== undefined) {
				const outer = enclosing(node);
				const state = outer.reduce(combine, { run: callee.run, why: callee.why });
				found.push({
					title,
					...state,
					line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1,
					focused: callee.focused || outer.some((describe) => describe.focused),
				});
			}
		}
		ts.forEachChild(node, visit);
	};
	visit(file);

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
