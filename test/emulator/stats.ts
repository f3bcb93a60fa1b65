import { OPERATIONS, type ConnectionStats, type EmulatorStats, type Operation } from './types';

function zeroRequests(): Record<Operation, number> {
	return Object.fromEntries(OPERATIONS.map((op) => [op, 0])) as Record<Operation, number>;
}

function zeroConnections(): ConnectionStats {
	return { opened: 0, requests: 0, delayed: 0, throttlePauses: 0, throttledMs: 0 };
}

/** What the server saw, for tests to assert on without reading its files. */
export class StatsRecorder {
	private requests = zeroRequests();
	private responses: Record<string, number> = {};
	private faultsInjected = 0;
	private authFailures = 0;
	private currentPartUploads = 0;
	private maxConcurrentPartUploads = 0;
	private currentCdnRequests = 0;
	private maxConcurrentCdnRequests = 0;
	private lastCdnAcceptEncoding: string | null = null;
	private connections = zeroConnections();

	request(op: Operation): void {
		this.requests[op]++;
	}

	response(status: number): void {
		this.responses[status] = (this.responses[status] ?? 0) + 1;
	}

	/** What a client asked the CDN for, so tests can check it asks for what it can decode. */
	cdnRequest(acceptEncoding: string | undefined): void {
		this.lastCdnAcceptEncoding = acceptEncoding ?? null;
	}

	connectionOpened(): void {
		this.connections.opened++;
	}

	requestServed(): void {
		this.connections.requests++;
	}

	connectionDelayed(): void {
		this.connections.delayed++;
	}

	throttled(ms: number): void {
		this.connections.throttlePauses++;
		this.connections.throttledMs += ms;
	}

	fault(): void {
		this.faultsInjected++;
	}

	authFailure(): void {
		this.authFailures++;
	}

	/** Brackets one part upload from routing to the end of its exchange; returns the release. */
	partUploadStarted(): () => void {
		this.currentPartUploads++;
		this.maxConcurrentPartUploads = Math.max(this.maxConcurrentPartUploads, this.currentPartUploads);
		let released = false;
		return () => {
			if (released) return;
			released = true;
			this.currentPartUploads--;
		};
	}

	/** Brackets one CDN request (a file body) from routing to the end of its exchange; returns the release. */
	cdnRequestStarted(): () => void {
		this.currentCdnRequests++;
		this.maxConcurrentCdnRequests = Math.max(this.maxConcurrentCdnRequests, this.currentCdnRequests);
		let released = false;
		return () => {
			if (released) return;
			released = true;
			this.currentCdnRequests--;
		};
	}

	/** In-flight part uploads stay counted; the maximum restarts from them. */
	reset(): void {
		this.requests = zeroRequests();
		this.responses = {};
		this.faultsInjected = 0;
		this.authFailures = 0;
		this.maxConcurrentPartUploads = this.currentPartUploads;
		this.maxConcurrentCdnRequests = this.currentCdnRequests;
		this.lastCdnAcceptEncoding = null;
		this.connections = zeroConnections();
	}

	snapshot(openMultipartUploads: number): EmulatorStats {
		return {
			requests: { ...this.requests },
			responses: { ...this.responses },
			faultsInjected: this.faultsInjected,
			currentPartUploads: this.currentPartUploads,
			maxConcurrentPartUploads: this.maxConcurrentPartUploads,
			maxConcurrentCdnRequests: this.maxConcurrentCdnRequests,
			openMultipartUploads,
			authFailures: this.authFailures,
			lastCdnAcceptEncoding: this.lastCdnAcceptEncoding,
			connections: { ...this.connections },
		};
	}
}
