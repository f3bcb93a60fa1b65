import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';

import type { TransportSettings, WrittenFile } from './call';
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
	/**
	 * The requests go in a slot of the pool one of this item's requests already holds (the check
	 * right before a delete is sent again, see ResendCheck): one at a time, taking no other.
	 */
	slotHeld?: boolean;
}
