/**
 * Download to a File Path on a disk that fills up: a small tmpfs makes the disk really full
 * (ENOSPC from the kernel, nothing simulated). Mounting needs root with CAP_SYS_ADMIN (CI and
 * the dev container have it); elsewhere the file is skipped, saying so.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { MIB, fileItem, randomFile, runFileStorage, sha256, useEmulator } from './support';

const DISK_BYTES = 4 * MIB;
const disk = mkdtempSync(join(tmpdir(), 'fs-full-disk-'));

function mountSmallDisk(): boolean {
	try {
		execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${DISK_BYTES}`, 'tmpfs', disk], { stdio: 'pipe' });
		return true;
	} catch {
		return false;
	}
}

const mounted = mountSmallDisk();
if (!mounted) {
	// eslint-disable-next-line no-console
	console.warn(
		`diskFull.test.ts skipped: cannot mount a ${DISK_BYTES / MIB} MiB tmpfs (needs root with CAP_SYS_ADMIN)`,
	);
}
process.env.N8N_RESTRICT_FILE_ACCESS_TO = disk;
afterAll(() => {
	if (mounted) execFileSync('umount', [disk]);
	rmSync(disk, { recursive: true, force: true });
});

const emulator = useEmulator();
const onDisk = mounted ? describe : describe.skip;

async function downloadTo(key: string, path: string) {
	return await runFileStorage(emulator(), {
		resource: 'file',
		operation: 'download',
		fileKey: { __rl: true, mode: 'key', value: key },
		destination: 'filePath',
		destinationFilePath: path,
		options: { maxRetries: 0 },
	});
}

async function store(key: string, bytes: Buffer) {
	const result = await runFileStorage(
		emulator(),
		{ resource: 'file', operation: 'upload', key },
		{ items: [fileItem(bytes)] },
	);
	expect(result.error).toBeUndefined();
}

onDisk('Download to a File Path on a disk that fills up', () => {
	afterEach(() => {
		for (const name of readdirSync(disk)) rmSync(join(disk, name), { force: true });
	});

	it('a file to be replaced keeps its content when the disk has no room for the new one: nothing is written to it', async () => {
		const newer = randomFile(2.5 * MIB);
		await store('full/newer.bin', newer);
		const path = join(disk, 'report.bin');
		const old = randomFile(0.5 * MIB);
		writeFileSync(path, old);
		// The new file fits beside the old one once (its temporary copy), not twice.
		const result = await downloadTo('full/newer.bin', path);
		expect(result.error?.message).toBe(
			`There is not enough room on the disk to replace '${path}' with the download of 'full/newer.bin' (${newer.length} bytes)`,
		);
		expect(result.error?.description).toMatch(
			/^Nothing was written to '.*report\.bin'\. Replacing it needs \d+ bytes free on its disk/,
		);
		expect(sha256(readFileSync(path))).toBe(sha256(old));
		// The temporary copies are left empty, so the room is given back.
		for (const name of readdirSync(disk))
			if (name !== 'report.bin') expect(readFileSync(join(disk, name)).length).toBe(0);
	});

	it('a larger new version that fits once the old one is gone still replaces it', async () => {
		const newer = randomFile(1.8 * MIB);
		await store('full/larger.bin', newer);
		const path = join(disk, 'video.bin');
		writeFileSync(path, randomFile(1.5 * MIB));
		const result = await downloadTo('full/larger.bin', path);
		expect(result.error).toBeUndefined();
		expect(sha256(readFileSync(path))).toBe(sha256(newer));
	});

	it('a new path on a disk with no room for the second copy gets no partial file', async () => {
		const newer = randomFile(2.5 * MIB);
		await store('full/fresh.bin', newer);
		writeFileSync(join(disk, 'filler.bin'), randomFile(1 * MIB));
		const path = join(disk, 'fresh.bin');
		const result = await downloadTo('full/fresh.bin', path);
		expect(result.error?.message).toMatch(/^Writing '.*fresh\.bin' failed: no space left on the disk/);
		expect(readdirSync(disk).includes('fresh.bin') ? readFileSync(path).length : 0).toBe(0);
	});
});
