/**
 * A line chart as an SVG file, written by hand so the bench needs no plotting library: one line
 * per series over categorical x positions, a dashed reference line, and one marked point.
 */

export interface Series {
	name: string;
	/** One value per x position; NaN leaves a gap. */
	values: number[];
}

export interface LineChart {
	title: string;
	subtitle: string;
	xLabel: string;
	yLabel: string;
	/** Labels of the x positions, evenly spaced. */
	x: string[];
	series: Series[];
	/** Drawn dashed, e.g. the limit the network allows. */
	reference: Series;
	/** A point to ring and label, e.g. the defaults. */
	mark?: { series: string; x: string; label: string };
}

const WIDTH = 760;
const HEIGHT = 460;
const PAD = { left: 70, right: 170, top: 64, bottom: 56 };
const COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2'];

function escape(text: string): string {
	return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A round step giving about five grid lines up to `max`. */
function niceStep(max: number): number {
	const raw = max / 5;
	const power = 10 ** Math.floor(Math.log10(raw));
	const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw);
	return step ?? 10 * power;
}

const n = (v: number) => v.toFixed(1);

export function renderLineChart(chart: LineChart): string {
	const all = [...chart.series, chart.reference].flatMap((s) => s.values).filter(Number.isFinite);
	const step = niceStep(Math.max(1, ...all) * 1.05);
	const yMax = Math.ceil((Math.max(1, ...all) * 1.05) / step) * step;
	const plotW = WIDTH - PAD.left - PAD.right;
	const plotH = HEIGHT - PAD.top - PAD.bottom;
	const xAt = (i: number) => PAD.left + (chart.x.length === 1 ? plotW / 2 : (i * plotW) / (chart.x.length - 1));
	const yAt = (v: number) => PAD.top + plotH - (v / yMax) * plotH;

	const out: string[] = [
		`<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
		`<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
		`<text x="${PAD.left}" y="24" font-size="16" font-weight="bold">${escape(chart.title)}</text>`,
		`<text x="${PAD.left}" y="44" fill="#555555">${escape(chart.subtitle)}</text>`,
	];
	for (let v = 0; v <= yMax + 1e-9; v += step) {
		const y = n(yAt(v));
		out.push(
			`<line x1="${PAD.left}" y1="${y}" x2="${PAD.left + plotW}" y2="${y}" stroke="#e5e5e5"/>`,
			`<text x="${PAD.left - 8}" y="${y}" text-anchor="end" dominant-baseline="middle">${Number(v.toFixed(2))}</text>`,
		);
	}
	chart.x.forEach((label, i) => {
		out.push(`<text x="${n(xAt(i))}" y="${PAD.top + plotH + 20}" text-anchor="middle">${escape(label)}</text>`);
	});
	out.push(
		`<line x1="${PAD.left}" y1="${PAD.top + plotH}" x2="${PAD.left + plotW}" y2="${PAD.top + plotH}" stroke="#333333"/>`,
		`<line x1="${PAD.left}" y1="${PAD.top}" x2="${PAD.left}" y2="${PAD.top + plotH}" stroke="#333333"/>`,
		`<text x="${PAD.left + plotW / 2}" y="${HEIGHT - 14}" text-anchor="middle">${escape(chart.xLabel)}</text>`,
		`<text transform="translate(18 ${PAD.top + plotH / 2}) rotate(-90)" text-anchor="middle">${escape(chart.yLabel)}</text>`,
	);

	const path = (values: number[]) => {
		let d = '';
		let pen = false;
		values.forEach((v, i) => {
			if (!Number.isFinite(v)) {
				pen = false;
				return;
			}
			d += `${pen ? 'L' : 'M'}${n(xAt(i))} ${n(yAt(v))} `;
			pen = true;
		});
		return d.trim();
	};
	out.push(
		`<path d="${path(chart.reference.values)}" fill="none" stroke="#000000" stroke-width="2" stroke-dasharray="6 4"/>`,
	);
	chart.series.forEach((s, k) => {
		const color = COLORS[k % COLORS.length];
		out.push(`<path d="${path(s.values)}" fill="none" stroke="${color}" stroke-width="2"/>`);
		s.values.forEach((v, i) => {
			if (Number.isFinite(v)) out.push(`<circle cx="${n(xAt(i))}" cy="${n(yAt(v))}" r="3.5" fill="${color}"/>`);
		});
	});

	const markSeries = chart.mark && chart.series.find((s) => s.name === chart.mark!.series);
	const markIndex = chart.mark ? chart.x.indexOf(chart.mark.x) : -1;
	const markValue = markSeries && markIndex >= 0 ? markSeries.values[markIndex] : NaN;
	if (chart.mark && Number.isFinite(markValue)) {
		const cx = n(xAt(markIndex));
		const cy = n(yAt(markValue));
		out.push(
			`<circle cx="${cx}" cy="${cy}" r="9" fill="none" stroke="#000000" stroke-width="1.5"/>`,
			`<text x="${cx}" y="${n(yAt(markValue) + 24)}" text-anchor="middle" font-weight="bold">${escape(chart.mark.label)}</text>`,
		);
	}

	const legendX = PAD.left + plotW + 20;
	let legendY = PAD.top + 6;
	const legend = (draw: string, label: string) => {
		out.push(draw, `<text x="${legendX + 30}" y="${legendY}" dominant-baseline="middle">${escape(label)}</text>`);
		legendY += 22;
	};
	legend(
		`<line x1="${legendX}" y1="${legendY}" x2="${legendX + 22}" y2="${legendY}" stroke="#000000" stroke-width="2" stroke-dasharray="6 4"/>`,
		chart.reference.name,
	);
	chart.series.forEach((s, k) => {
		const color = COLORS[k % COLORS.length];
		legend(
			`<line x1="${legendX}" y1="${legendY}" x2="${legendX + 22}" y2="${legendY}" stroke="${color}" stroke-width="2"/><circle cx="${legendX + 11}" cy="${legendY}" r="3.5" fill="${color}"/>`,
			s.name,
		);
	});
	out.push('</svg>', '');
	return out.join('\n');
}
