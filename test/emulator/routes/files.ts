import { LIMITS } from '../config';
import type { RouteRequest, ServerContext } from '../context';
import { removeQuietly } from '../fsutil';
import { notFound, ok, type Reply } from '../http';
import { describeFolder, paginate } from '../listing';
import { QueryChecker } from '../params';
import { location, signedUrl } from '../signed-url';
import { ensureBucket, receiveFormFile, storedFileResult } from './common';

/** §3.1 */
export async function list(ctx: ServerContext, r: RouteRequest): Promise<Reply> {
	const q = new QueryChecker(r.target.query);
	const { bucket, region } = q.bucket();
	const prefix = q.optional('prefix') ?? '';
	if (Buffer.byteLength(prefix) > LIMITS.maxKeyBytes)
		q.fail('prefix', `Prefix must be at most ${LIMITS.maxKeyBytes} bytes`);
	const page = q.integer(
		'page',
		{ min: 1, max: Number.MAX_SAFE_INTEGER, fallback: 1 },
		'Page must be a positive integer',
	);
	const limit = q.integer(
		'limit',
		{ min: 1, max: LIMITS.maxListLimit, fallback: LIMITS.defaultListLimit },
		`Limit must be an integer from 1 to ${LIMITS.maxListLimit}`,
	);
	q.throwIfInvalid();
	ensureBucket(ctx, bucket, region);
	const { items, pagination } = paginate(ctx.objects.children(bucket, region, prefix), page ?? 1, limit ?? 20);
	return ok({ contents: { ...describeFolder(prefix), children: items }, pagination });
}

/** §3.2 */
export async function upload(ctx: ServerContext, r: RouteRequest): Promise<Reply> {
	const q = new QueryChecker(r.target.query);
	const { bucket, region } = q.bucket();
	const visibility = q.visibility();
	const key = q.key();
	q.throwIfInvalid();
	ensureBucket(ctx, bucket, region);
	const file = await receiveFormFile(ctx, r, ctx.objects.newBlobFile(bucket, region, key), false);
	try {
		const meta = await ctx.objects.commit(bucket, region, key, file.tempFile, {
			size: file.size,
			contentType: file.contentType,
			visibility,
		});
		return ok(storedFileResult(ctx, meta, 'File uploaded successfully'));
	} catch (err) {
		await removeQuietly(file.tempFile);
		throw err;
	}
}

/** §3.7 */
export async function remove(ctx: ServerContext, r: RouteRequest): Promise<Reply> {
	const q = new QueryChecker(r.target.query);
	const { bucket, region } = q.bucket();
	const key = q.key();
	q.throwIfInvalid();
	ensureBucket(ctx, bucket, region);
	if (!(await ctx.objects.delete(bucket, region, key))) throw notFound();
	return ok({ message: 'File and all transformations deleted successfully' });
}

/** §3.8 */
export async function signedUrlRoute(ctx: ServerContext, r: RouteRequest): Promise<Reply> {
	const q = new QueryChecker(r.target.query);
	const { bucket, region } = q.bucket();
	const key = q.key();
	const expiresIn = q.integer(
		'expiresIn',
		{ min: 1, max: LIMITS.maxExpiresIn, fallback: LIMITS.defaultExpiresIn },
		`expiresIn must be an integer number of seconds from 1 to ${LIMITS.maxExpiresIn}`,
	) as number;
	q.throwIfInvalid();
	ensureBucket(ctx, bucket, region);
	const meta = ctx.objects.get(bucket, region, key);
	if (!meta) throw notFound();
	const { accessId, secretKey } = ctx.config;
	if (meta.visibility === 'public') {
		return ok({ url: location(ctx.baseUrl, accessId, key), is_public: true });
	}
	const expires = Math.floor(ctx.config.now() / 1000) + expiresIn;
	return ok({
		url: signedUrl(ctx.baseUrl, secretKey, accessId, key, expires),
		expires_in: expiresIn,
		is_public: false,
	});
}

/**
 * [service: the SDK's `files.purge`] Clears a file from the CDN cache. With `cdnCacheSeconds` set
 * the emulator's CDN keeps public answers (routes/cdn-cache.ts) and this clears the key's; with
 * no cache there is nothing to clear. Either way it answers with the URLs a cache would hold for
 * the file [ours: `message`, and `urls` = its location].
 */
export async function purge(ctx: ServerContext, r: RouteRequest): Promise<Reply> {
	const q = new QueryChecker(r.target.query);
	const { bucket, region } = q.bucket();
	const key = q.key();
	q.throwIfInvalid();
	ensureBucket(ctx, bucket, region);
	// [ours] A key that is not stored (any more) is purged too: a deleted file may still be cached.
	// The CDN serves a key whatever its bucket (its location names no bucket), so is the cache.
	ctx.cdnCache.purge(key);
	return ok({ message: 'Cache purged successfully', urls: [location(ctx.baseUrl, ctx.config.accessId, key)] });
}
