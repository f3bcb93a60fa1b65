import type { ServerContext, RouteRequest } from '../context';
import { assertBodyWithinLimit, continueBody, notFound, payloadTooLarge, validationFailed, HttpError } from '../http';
import { BodyTooLargeError, FormError, receiveFile, type ReceivedFile } from '../multipart-form';
import { location } from '../signed-url';
import type { ObjectMeta } from '../storage';

export function ensureBucket(
	ctx: ServerContext,
	bucket: string,
	region: string,
	error: () => HttpError = () => notFound(),
): void {
	if (!ctx.objects.hasBucket(bucket, region)) throw error();
}

/** Seed §2.4, the answer of single upload and of complete. */
export function storedFileResult(ctx: ServerContext, meta: ObjectMeta, message: string): Record<string, unknown> {
	return {
		message,
		key: meta.key,
		location: location(ctx.baseUrl, ctx.config.accessId, meta.key),
		bucket: meta.bucket,
		region: meta.region,
		visibility: meta.visibility,
		size: meta.size,
		content_type: meta.contentType,
	};
}

/** Receives the form's `file` part into `target`, mapping form problems to 400 and 413. */
export async function receiveFormFile(
	ctx: ServerContext,
	r: RouteRequest,
	target: string,
	md5: boolean,
): Promise<ReceivedFile> {
	assertBodyWithinLimit(r.req, ctx.config.maxBodyBytes);
	continueBody(r.req, r.res);
	try {
		return await receiveFile(r.req, { tempFile: target, maxBodyBytes: ctx.config.maxBodyBytes, md5 });
	} catch (err) {
		if (err instanceof FormError) throw validationFailed([{ field: 'file', message: err.message }]);
		if (err instanceof BodyTooLargeError) throw payloadTooLarge(err.limit);
		throw err;
	}
}
