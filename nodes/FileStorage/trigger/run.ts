import type { IPollFunctions } from 'n8n-workflow';

import { RunPool } from '../transport/pool';
import { FileStorageClient } from '../transport/request';
import { readSettings, type TriggerSettings } from './settings';

/** n8n's own default budget (2.40), used where n8n does not tell (1.x). */
const DEFAULT_POLL_BUDGET_MS = 5 * 60 * 1000;
/** Part of the budget kept free, so the poll returns before n8n gives up on it. */
const BUDGET_RESERVE = 0.1;
/** Downloads reserve no body memory; the pool only counts requests. */
const NO_BODY_MEMORY = 0;

/** What every step of one poll works with. */
export interface PollRun {
	ctx: IPollFunctions;
	settings: TriggerSettings;
	client: FileStorageClient;
	/** The time (Date.now()) after which the poll starts nothing new. */
	deadline: number;
}

function pollBudgetMs(ctx: IPollFunctions): number {
	// n8n 1.x has no budget; 2.40 gives one (5 minutes unless configured).
	const budget = (ctx as Partial<IPollFunctions>).getPollBudgetMs?.call(ctx);
	return typeof budget === 'number' && budget > 0 ? budget : DEFAULT_POLL_BUDGET_MS;
}

/** The poll's clock starts before anything else, so that reading the settings counts against it. */
export async function startRun(ctx: IPollFunctions): Promise<PollRun> {
	const deadline = Date.now() + pollBudgetMs(ctx) * (1 - BUDGET_RESERVE);
	const settings = readSettings(ctx);
	// One pool per poll: a 429 or 503 pauses every download of it. Without one (a single request
	// at a time, version 1's default) the poll sends exactly what it always sent.
	const pool = settings.download && settings.parallel > 1 ? new RunPool(settings.parallel, NO_BODY_MEMORY) : undefined;
	const settingsOfClient = { timeoutMs: settings.timeoutMs, maxRetries: settings.maxRetries };
	const client = await FileStorageClient.create(ctx, 0, settingsOfClient, { pool });
	return { ctx, settings, client, deadline };
}
