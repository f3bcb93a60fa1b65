/**
 * `npm run dev` runs this script under `sh -c`, and dash does not exec its command: a SIGTERM to
 * npm reaches the shell, which dies, and this process would live on as an orphan with n8n and
 * the emulator. So it watches its parent: once the parent is gone (this process was handed to
 * another), it stops everything as on a signal of its own.
 */
export function onParentExit(stop: () => void, everyMs = 500): void {
	const parent = process.ppid;
	const timer = setInterval(() => {
		if (process.ppid !== parent) {
			clearInterval(timer);
			stop();
		}
	}, everyMs);
	timer.unref();
}
