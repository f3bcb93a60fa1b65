import type { IPollFunctions } from 'n8n-workflow';

/**
 * Polls under way, one mark per trigger (workflow id and node name, which is also what n8n keys
 * the node's static data by). n8n's scheduler starts a poll on every tick of Poll Times without
 * waiting for the previous one, and a poll may take most of its budget (minutes) while ticks come
 * every minute: two polls of one trigger that overlap would both compare the scan with the same
 * saved state and emit the same change twice. Polls and their state live in n8n's main process
 * (also in queue mode), so a mark in this module is seen by every poll of the trigger. It is keyed
 * by name rather than by the static data object, which a scheduler may load afresh for each poll.
 */
const underWay = new Set<string>();

function triggerOf(ctx: IPollFunctions): string {
	return JSON.stringify([String(ctx.getWorkflow().id ?? ''), ctx.getNode().name]);
}

/**
 * Runs `poll` unless a poll of the same trigger is still under way: then answers null at once
 * (emits nothing, changes no state), and the next tick finds the changes. The mark is released
 * however the poll ends (an answer, an error).
 */
export async function alone<T>(ctx: IPollFunctions, poll: () => Promise<T>): Promise<T | null> {
	const trigger = triggerOf(ctx);
	if (underWay.has(trigger)) {
		ctx.logger.info(
			'File Storage Trigger: the previous poll is still under way; this one is skipped and the next picks up the changes',
		);
		return null;
	}
	underWay.add(trigger);
	try {
		return await poll();
	} finally {
		underWay.delete(trigger);
	}
}
