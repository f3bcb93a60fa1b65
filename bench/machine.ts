/** What the report says about the machine: generic on purpose (no host names or paths). */
import { loadavg, cpus, totalmem, type as osType } from 'node:os';

export function machineDescription(): string {
	const gib = Math.round(totalmem() / 1024 ** 3);
	const major = process.versions.node.split('.')[0];
	return `${cpus().length} vCPU, ${gib} GiB RAM, ${osType()}, Node ${major}.x`;
}

export function loadAverage(): string {
	return loadavg()
		.map((v) => v.toFixed(2))
		.join(' / ');
}
