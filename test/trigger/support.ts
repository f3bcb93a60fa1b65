import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { ApiClient, emulatorClient } from '../emulator/conformance/client';
import type { Emulator } from '../emulator';
import { runPoll, type RunPollOptions, type RunPollResult } from '../harness';
import { BUCKET, credentialsFor } from '../node/support';

export { BUCKET, useEmulator } from '../node/support';

/** A plain API client (not the node) to change the bucket between polls. */
export function apiFor(emulator: Emulator): ApiClient {
	return emulatorClient(emulator, BUCKET.bucketName, BUCKET.region);
}

export async function put(
	api: ApiClient,
	key: string,
	data: string | Buffer = 'hello',
	options: { contentType?: string; visibility?: string } = {},
): Promise<void> {
	const response = await api.upload(key, Buffer.from(data), { contentType: 'text/plain', ...options });
	if (response.status !== 200) throw new Error(`upload of ${key}: ${response.status} ${response.body.toString()}`);
}

export async function remove(api: ApiClient, key: string): Promise<void> {
	const response = await api.delete(key);
	if (response.status !== 200) throw new Error(`delete of ${key}: ${response.status} ${response.body.toString()}`);
}

/** Resolves just after the wall clock enters a new second (the listing's precision). */
export async function nextSecond(): Promise<void> {
	const wait = 1000 - (Date.now() % 1000) + 20;
	await new Promise((resolve) => setTimeout(resolve, wait));
}

/**
 * A chain of polls of one trigger, each handed the static data the previous one left (what n8n
 * saves), through n8n-core's PollContext.
 */
export class Poller {
	staticData: IDataObject = {};
	private readonly credentials: () => RunPollOptions['credentials'];

	/** Polls the emulator, or any server given by its URL (a scripted one). */
	/**
	 * `durable`: as n8n's durable scheduler (N8N_SCHEDULER_ENABLED, 2.41) runs polls: each one
	 * starts from the state saved in the database, and a poll that throws saves nothing.
	 * `typeVersion`: the trigger version the workflow saved (default: the newest).
	 */
	constructor(
		server: (() => Emulator) | { url: string },
		private readonly parameters: INodeParameters,
		private readonly scheduler: { durable?: boolean; typeVersion?: number } = {},
	) {
		this.credentials =
			typeof server === 'function'
				? () => credentialsFor(server())
				: () => ({ fileStorageApi: { accessKey: 'key', secretKey: 'secret', baseUrl: server.url } });
	}

	async poll(extra: Partial<RunPollOptions> = {}): Promise<RunPollResult> {
		const result = await runPoll({
			credentials: this.credentials(),
			staticData: this.staticData,
			typeVersion: this.scheduler.typeVersion,
			...extra,
			parameters: { ...BUCKET, ...this.parameters, ...extra.parameters },
		});
		// An active workflow keeps its static data in memory from poll to poll, also after a poll
		// that threw (the next emitting poll saves it); a manual run's is never kept.
		const saved = !(this.scheduler.durable && result.error);
		if ((extra.mode ?? 'trigger') === 'trigger' && saved) this.staticData = result.staticData;
		return result;
	}

	/** The trigger's saved state as n8n keeps it (undefined when none is saved). */
	get savedState(): unknown {
		const nodes = Object.entries(this.staticData).filter(([name]) => name.startsWith('node:'));
		return nodes.map(([, data]) => (data as IDataObject).fileStorageTrigger).find((state) => state !== undefined);
	}

	/** Replaces the trigger's saved state, as a damaged database row or a hand edit would. */
	set savedState(state: unknown) {
		const entry = Object.entries(this.staticData).find(([name]) => name.startsWith('node:'));
		if (!entry) throw new Error('no static data saved for the trigger yet');
		(entry[1] as IDataObject).fileStorageTrigger = state as IDataObject;
	}

	/** A poll that must succeed; returns `[event, key]` of every item. */
	async changes(extra: Partial<RunPollOptions> = {}): Promise<Array<[string, string]>> {
		const result = await this.poll(extra);
		if (result.error) throw result.error;
		return result.items.map((item) => [String(item.json.event), String(item.json.key)]);
	}
}
