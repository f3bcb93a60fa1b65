/** Markdown tables: the same text goes to the terminal and into BENCHMARKS.md. */

export interface Table {
	title: string;
	/** One line under the title: what was measured and how. */
	note?: string;
	head: string[];
	rows: string[][];
}

/** A column as data: its head and how a row fills its cell. */
export type Column<R> = [head: string, cell: (row: R) => string];

export function tabulate<R>(rows: R[], columns: Column<R>[]): Pick<Table, 'head' | 'rows'> {
	return { head: columns.map(([head]) => head), rows: rows.map((row) => columns.map(([, cell]) => cell(row))) };
}

export function renderTable(table: Table): string {
	const widths = table.head.map((h, i) => Math.max(h.length, ...table.rows.map((r) => (r[i] ?? '').length)));
	const line = (cells: string[]) => `| ${cells.map((c, i) => (c ?? '').padEnd(widths[i])).join(' | ')} |`;
	const out = [`### ${table.title}`, ''];
	if (table.note) out.push(table.note, '');
	out.push(line(table.head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...table.rows.map(line));
	return out.join('\n');
}

/** The table of a scenario that could not run, saying why. */
export function skippedTable(title: string, what: string, reason: string): Table {
	return { title, head: ['Workflow', 'Result'], rows: [[what, `skipped: ${reason}`]] };
}
