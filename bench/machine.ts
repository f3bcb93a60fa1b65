/** What the report says about the machine: generic on purpose (no host names or paths). */
import { loadavg, cpus, totalmem, type as osType } from 'node:os';

import { curlVersion } from './curl';

export function machineDescription(): string {
	const gib = Math.round(totalmem() / 1024 ** 3);
	const major = process.versions.node.split('.')[0];
	return `${cpus().length} vCPU, ${gib} GiB RAM, ${osType()}, Node ${major}.x`;
}

export function curlDescription(): string {
	const version = curlVersion();
	return version ? version.split(' ').slice(0, 2).join(' ') : 'curl not found';
}

export function loadAverage(): string {
	return loadavg()
		.map((v) => v.toFixed(2))
		.join(' / ');
}
