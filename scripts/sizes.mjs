// Issue 31's size figures: the largest file, the longest function and the widest signature of the
// product (nodes/ + credentials/) and of the tooling (bench/ + scripts/), and the tooling ratio.
// `node scripts/sizes.mjs [folder…]` (default: the product, then the tooling); `--json`: both, as JSON.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const files = (dir) =>
	readdirSync(dir, { recursive: true })
		.map((name) => join(dir, name))
		.filter((path) => /\.(ts|mjs|js)$/.test(path) && !path.includes('node_modules'));

function measure(dirs) {
	const all = { lines: 0, file: ['', 0], fn: ['', 0], params: ['', 0] };
	for (const path of dirs.flatMap(files)) {
		const text = readFileSync(path, 'utf8');
		const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
		all.lines += lines;
		if (lines > all.file[1]) all.file = [path, lines];
		const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
		const visit = (node) => {
			if (ts.isFunctionLike(node) && node.body) {
				const line = (pos) => source.getLineAndCharacterOfPosition(pos).line;
				const at = `${path}:${line(node.getStart()) + 1} ${node.name?.getText() ?? '(anonymous)'}`;
				const length = line(node.end) - line(node.getStart()) + 1;
				if (length > all.fn[1]) all.fn = [at, length];
				if (node.parameters.length > all.params[1]) all.params = [at, node.parameters.length];
			}
			ts.forEachChild(node, visit);
		};
		visit(source);
	}
	return all;
}

function print(label, m) {
	console.log(`${label}: ${m.lines} lines; largest file ${m.file[0]} (${m.file[1]} lines)`);
	console.log(
		`  longest function ${m.fn[0]} (${m.fn[1]} lines); widest signature ${m.params[0]} (${m.params[1]} parameters)`,
	);
}

const asked = process.argv.slice(2);
if (asked[0] === '--json') {
	// For test/unit/codeSizes.test.ts, which keeps the aims.
	const [product, tooling] = [measure(['nodes', 'credentials']), measure(['bench', 'scripts'])];
	console.log(JSON.stringify({ product, tooling, ratio: tooling.lines / product.lines }));
} else if (asked.length) print(asked.join(' + '), measure(asked));
else {
	const product = measure(['nodes', 'credentials']);
	const tooling = measure(['bench', 'scripts']);
	print('product (nodes + credentials)', product);
	print('tooling (bench + scripts)', tooling);
	for (const dir of ['bench', 'scripts']) print(`  ${dir}`, measure([dir]));
	console.log(`tooling ÷ product: ${(tooling.lines / product.lines).toFixed(2)} (goal ≤ 0.6)`);
}
