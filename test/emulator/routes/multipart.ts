import { LIMITS } from '../config';
import type { RouteRequest, ServerContext } from '../context';
import { randomHex, removeQuietly } from '../fsutil';
import { HttpError, notFound, ok, readJsonBody, validationFailed, type Detail, type Reply } from '../http';
import { QueryChecker } from '../params';
import { UploadGoneError, type PartInfo, type Upload } from '../uploads';
import { ensureBucket, receiveFormFile, storedFileResult } from './common';

const uploadNotFound = () => notFound('No open multipart upload with this uploadId for this bucket, region and key');

/** The upload must exist and belong to the bucket, region and key the request names (as S3). */
function findUpload(ctx: ServerContext, r: RouteRequest, bucket: string, region: string, key: string): Upload {
	const upload = ctx.uploads.get(r.uploadId ?? '');
	if (!upload || upload.bucket !== bucket || upload.region !== region || upload.key !== key) throw uploadNotFound();
	return upload;
}

/** §3.3 */
export async function start(ctx: ServerContext, r: RouteRequest): Promise<Reply> {
	const q = new QueryChecker(r.target.query);
	const { bucket, region } = q.bucket();
	const key = q.key();
	// [ours] mimeType is optional; the object is application/octet-stream without it.
	const mimeType = q.optional('mimeType') ?? 'application/octet-stream';
	if (mimeType.length > 255 || !/^[^\s/]+\/[^\s]+/.test(mimeType))
		q.fail('mimeType', 'mimeType must be a MIME type such as "video/mp4"');
	const visibility = q.visibility();
	const totalParts = q.totalParts();
	q.throwIfInvalid();
	ensureBucket(ctx, bucket, region);
	const upload = await ctx.uploads.start({ bucket, region, key, mimeType, visibility, totalParts });
	return ok({ uploadId: upload.uploadId, key: upload.key, bucket: upload.bucket, fileId: upload.fileId });
}

/** §3.4 */
export async function uploadPart(ctx: ServerContext, r: RouteRequest): Promise<Reply> {
	const q = new QueryChecker(r.target.query);
	const { bucket, region } = q.bucket();
	const partNumber = q.partNumber(true) as number;
	const key = q.key();
	q.totalParts();
	q.throwIfInvalid();
	ensureBucket(ctx, bucket, region);
	const upload = findUpload(ctx, r, bucket, region, key);
	// Parts go to the temp folder, not the upload's: a cancel may remove that folder mid-body.
	const md5 = ctx.config.etags === 'md5';
	const file = await receiveFormFile(ctx, r, ctx.tmp.file('.part'), md5);
	// [ours] Either way the ETag is opaque to clients; `random` skips hashing every byte.
	const etag = md5 ? `"${file.md5}"` : `"${randomHex(16)}"`;
	try {
		await ctx.uploads.putPart(upload, partNumber, file.tempFile, etag, file.size);
	} catch (err) {
		await removeQuietly(file.tempFile);
		if (err instanceof UploadGoneError) throw uploadNotFound();
		throw err;
	}
	return ok({ partNumber, ETag: etag });
}

interface PartRef {
	PartNumber: number;
	ETag: string;
}

/** Shape of the complete body; problems here need no upload state. */
function parsePartList(body: unknown): { ok: true; refs: PartRef[] } | { ok: false; details: Detail[] } {
	const parts = (body as { parts?: unknown } | null)?.parts;
	if (!Array.isArray(parts) || parts.length === 0) {
		return {
			ok: false,
			details: [{ field: 'parts', message: 'parts must be a non-empty array of { PartNumber, ETag }' }],
		};
	}
	const details: Detail[] = [];
	parts.forEach((p: unknown, i) => {
		const ref = p as Partial<PartRef> | null;
		if (!ref || typeof ref !== 'object') {
			details.push({ field: `parts[${i}]`, message: 'Each part must be an object { PartNumber, ETag }' });
			return;
		}
		if (
			!Number.isInteger(ref.PartNumber) ||
			(ref.PartNumber as number) < 1 ||
			(ref.PartNumber as number) > LIMITS.maxPartNumber
		) {
			details.push({
				field: `parts[${i}].PartNumber`,
				message: `PartNumber must be an integer from 1 to ${LIMITS.maxPartNumber}`,
			});
		}
		if (typeof ref.ETag !== 'string' || ref.ETag === '') {
			details.push({ field: `parts[${i}].ETag`, message: 'ETag must be the string returned by the part upload' });
		}
	});
	return details.length > 0 ? { ok: false, details } : { ok: true, refs: parts as PartRef[] };
}

/**
 * [ours, as S3] Against the upload's current parts: strictly ascending, every part uploaded,
 * ETags equal byte for byte (quotes included) to the last upload of each part, and every part
 * but the last at least the minimum size.
 */
function checkParts(
	refs: PartRef[],
	upload: Upload,
	minPartSize: number,
): { ok: true; parts: PartInfo[] } | { ok: false; error: Detail[] } {
	const details: Detail[] = [];
	const parts: PartInfo[] = [];
	refs.forEach((ref, i) => {
		const field = `parts[${i}]`;
		if (i > 0 && ref.PartNumber <= refs[i - 1].PartNumber) {
			details.push({
				field: `${field}.PartNumber`,
				message: 'Parts must be listed in strictly ascending PartNumber order, each once',
			});
			return;
		}
		const part = upload.parts.get(ref.PartNumber);
		if (!part) {
			details.push({ field: `${field}.PartNumber`, message: `Part ${ref.PartNumber} was never uploaded` });
			return;
		}
		if (part.etag !== ref.ETag) {
			details.push({
				field: `${field}.ETag`,
				message: `ETag does not match the last upload of part ${ref.PartNumber}`,
			});
			return;
		}
		if (i < refs.length - 1 && part.size < minPartSize) {
			details.push({
				field: `${field}.PartNumber`,
				message: `Part ${ref.PartNumber} is ${part.size} bytes; every part but the last must be at least ${minPartSize} bytes`,
			});
			return;
		}
		parts.push(part);
	});
	return details.length > 0 ? { ok: false, error: details } : { ok: true, parts };
}

/** §3.5 */
export async function complete(ctx: ServerContext, r: RouteRequest): Promise<Reply> {
	const q = new QueryChecker(r.target.query);
	const { bucket, region } = q.bucket();
	const key = q.key();
	const contentType = r.req.headers['content-type'] ?? '';
	if (!/^application\/json\s*(;|$)/i.test(contentType)) {
		q.fail('Content-Type', 'Content-Type must be application/json');
	}
	q.throwIfInvalid();
	const body = await readJsonBody(r.req, r.res, LIMITS.maxJsonBodyBytes);
	// The seed's own shape for this operation's missing bucket.
	ensureBucket(ctx, bucket, region, () => new HttpError(404, { message: 'Bucket not found' }));
	const upload = findUpload(ctx, r, bucket, region, key);
	if (!body.ok) throw validationFailed([{ field: 'parts', message: body.reason }]);
	const parsed = parsePartList(body.value);
	if (!parsed.ok) throw validationFailed(parsed.details);
	try {
		const result = await ctx.uploads.complete(
			upload,
			(u) => checkParts(parsed.refs, u, ctx.config.minPartSize),
			(count) => ctx.objects.newBlobFiles(bucket, region, key, count),
			(files, size) =>
				ctx.objects.commit(bucket, region, key, files, {
					size,
					contentType: upload.mimeType,
					visibility: upload.visibility,
				}),
		);
		if (!result.ok) throw validationFailed(result.error);
		return ok(storedFileResult(ctx, result.value, 'Multipart upload completed successfully'));
	} catch (err) {
		if (err instanceof UploadGoneError) throw uploadNotFound();
		throw err;
	}
}

/** §3.6 */
export async function cancel(ctx: ServerContext, r: RouteRequest): Promise<Reply> {
	const q = new QueryChecker(r.target.query);
	const { bucket, region } = q.bucket();
	const key = q.key();
	q.throwIfInvalid();
	ensureBucket(ctx, bucket, region);
	const upload = findUpload(ctx, r, bucket, region, key);
	try {
		await ctx.uploads.cancel(upload);
	} catch (err) {
		if (err instanceof UploadGoneError) throw uploadNotFound();
		throw err;
	}
	return ok({ message: 'Multipart upload cancelled successfully' });
}
