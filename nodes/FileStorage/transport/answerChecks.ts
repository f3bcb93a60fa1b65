import type { IDataObject } from 'n8n-workflow';

import { failedAnswer, isApiNotFoundAnswer } from './apiAnswer';
import { withheldResend } from './callFailures';
import { failedOnRetryWith } from './errors';
import type { FamilyRoutes } from './pathFamily';
import type { ApiCall, FileStorageClient } from './request';

/** What every endpoint of api.ts and multipartApi.ts checks of the service's answers. */

export const FILES = '/api/v1/files';

export function describe(value: unknown): string {
	const text = JSON.stringify(value);
	return text === undefined ? 'nothing' : text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

export function isNonEmptyString(value: unknown): value is string {
	return typeof value === 'string' && value.trim() !== '';
}

/** A whole number the service may spell as a number or as a numeric string. */
export function wholeNumber(value: unknown): number | undefined {
	if (typeof value === 'number' && Number.isInteger(value)) return value;
	if (typeof value === 'string' && /^\d+$/.test(value.trim())) return Number(value);
	return undefined;
}

export function requireObject(client: FileStorageClient, what: string, data: unknown): IDataObject {
	if (!data || typeof data !== 'object' || Array.isArray(data)) {
		throw client.unexpectedAnswer(what, `"data" is ${describe(data)}, not an object`);
	}
	return data as IDataObject;
}

/** The `data` object of a call's answer; anything else is an unexpected answer. */
export async function answerOf(client: FileStorageClient, call: ApiCall): Promise<IDataObject> {
	return requireObject(client, call.what, await client.send(call));
}

/** The same, with the answer's HTTP Date as sent (the service's clock), when it sent one. */
export async function datedAnswerOf(
	client: FileStorageClient,
	call: ApiCall,
): Promise<{ data: IDataObject; date?: string }> {
	const { data, date } = await client.sendDated(call);
	return { data: requireObject(client, call.what, data), ...(date === undefined ? {} : { date }) };
}

export function requireSameKey(client: FileStorageClient, what: string, data: IDataObject, key: string): void {
	if (data.key !== key) {
		throw client.unexpectedAnswer(
			what,
			`the stored file's key is ${describe(data.key)}, but ${describe(key)} was sent`,
		);
	}
}

export function multipartPath(uploadId: string, step: string): string {
	return `${FILES}/multipart/${encodeURIComponent(uploadId)}/${step}`;
}

/** An endpoint the two path families spell differently (pathFamily.ts); the transport picks one. */
export function inFamily(routes: FamilyRoutes): Pick<ApiCall, 'method' | 'path' | 'family'> {
	return { ...routes.reference, family: routes };
}

/** Every entry is read by its path and type: one without them cannot be listed, watched or fetched. */
export function checkEntry(client: FileStorageClient, what: string, entry: unknown, index: number): void {
	const field = `"contents.children[${index}]"`;
	if (!entry || typeof entry !== 'object' || Array.isArray(entry)) {
		throw client.unexpectedAnswer(what, `${field} is ${describe(entry)}, not an entry object`);
	}
	const { path, type } = entry as IDataObject;
	if (!isNonEmptyString(path)) {
		throw client.unexpectedAnswer(what, `${field}.path is ${describe(path)}, not a non-empty string`);
	}
	if (typeof type !== 'string') {
		throw client.unexpectedAnswer(what, `${field}.type is ${describe(type)}, not a string`);
	}
}

/** What a Delete or Cancel reports; `earlierAttempt` when a retry found the work already done. */
export interface Removal {
	message: string;
	earlierAttempt: boolean;
}

/**
 * Delete and Cancel are sent again when an answer is lost; the repeat then finds nothing to
 * remove (404). After a retry that means an earlier attempt did the work, not a failure. A delete
 * with a resendCheck is sent again only on it: its listing showing nothing left after an attempt
 * that may have been carried out is the same sign.
 */
export async function removal(client: FileStorageClient, call: ApiCall): Promise<Removal> {
	return await client.send<IDataObject>(call).then(
		(data) => ({ message: typeof data?.message === 'string' ? data.message : '', earlierAttempt: false }),
		(error: unknown) => {
			const withheld = withheldResend(error);
			// Only the API's own "not found" shows nothing is left: a gateway's 404 page or JSON says nothing of it.
			const foundGone = withheld
				? withheld.found === 'gone' && withheld.earlierMayHaveRun
				: failedOnRetryWith(error, 404) && isApiNotFoundAnswer(failedAnswer(error).body);
			if (!foundGone) throw error;
			return {
				message: withheld
					? "Done by an earlier attempt: its answer was lost, and the service's listing asked before sending it again no longer shows the file."
					: 'Done by an earlier attempt: its answer was lost, and the retry found nothing left to remove.',
				earlierAttempt: true,
			};
		},
	);
}
