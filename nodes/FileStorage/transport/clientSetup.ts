import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IPollFunctions,
} from 'n8n-workflow';

import { FileStorageApi } from '../../../credentials/FileStorageApi.credentials';

import type { TransportSettings, WrittenFile } from './call';
import type { WaitCount } from './looks';
import type { ApiPathsSetting } from './pathFamily';
import type { RunPool } from './pool';

/** What a FileStorageClient (request.ts) is made of. */

export const CREDENTIAL_TYPE = 'fileStorageApi';

export type Context = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

/**
 * The credential as read once for an item, handed to every request of that item. Without it
 * n8n reads and decrypts the credential again for each request: in n8n itself that is a
 * database query per part (in the in-process test engine a map lookup), a serial step in
 * front of every part of a large upload. Each request gets its own copy of the fields, so
 * nothing n8n does to them while signing one request reaches the next.
 */
export function decryptedOnce(ctx: Context, data: ICredentialDataDecryptedObject): ICredentialsDecrypted {
	const details = ctx.getNode().credentials?.[CREDENTIAL_TYPE];
	return { id: details?.id ?? '', name: details?.name ?? '', type: CREDENTIAL_TYPE, data };
}

/** What a client shares with its run: the request pool, and who learns of writes that may still land. */
export interface ClientRun {
	/** The node run's request pool (version 3, a trigger downloading several files at once). */
	pool?: RunPool;
	/** Told of a write an attempt of which ended with its outcome unknown (see ApiCall.writes). */
	onWriteMayLand?: (file: WrittenFile) => void;
}

/** What a client is made of: one item's view of the credential, the options and the run. */
export interface ClientSetup extends ClientRun {
	ctx: Context;
	/** The Base URL's origin. */
	origin: string;
	settings: TransportSettings;
	itemIndex: number;
	credentials: ICredentialsDecrypted;
	apiPaths: ApiPathsSetting;
	/** Every wait of this item's requests, shared with its client in a held slot (looks.ts). */
	waits: WaitCount;
	/**
	 * The requests go in a slot of the pool one of this item's requests already holds (the check
	 * right before a delete is sent again, see ResendCheck): one at a time, taking no other.
	 */
	slotHeld?: boolean;
}

/** One request signed by the credential (n8n's authenticated helper), with the item's decrypted credential. */
export async function sendSigned(setup: ClientSetup, options: IHttpRequestOptions): Promise<IN8nHttpFullResponse> {
	const { ctx, credentials } = setup;
	return (await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL_TYPE, options, {
		credentialsDecrypted: { ...credentials, data: { ...credentials.data } },
	})) as IN8nHttpFullResponse;
}

/**
 * Signed by the credential's own `authenticate`, sent by n8n's plain request helper, which
 * (unlike the authenticated one) keeps the signal it is given instead of the execution's.
 */
export async function sendDetached(
	setup: ClientSetup,
	options: IHttpRequestOptions,
	boundMs: number,
): Promise<IN8nHttpFullResponse> {
	const signed = await new FileStorageApi().authenticate({ ...setup.credentials.data }, options);
	return (await setup.ctx.helpers.httpRequest({
		...signed,
		timeout: Math.min(signed.timeout ?? boundMs, boundMs),
		abortSignal: AbortSignal.timeout(boundMs),
	})) as IN8nHttpFullResponse;
}
