import { LIMITS } from './config';
import { validationFailed, type Detail } from './http';
import { keyProblem } from './keys';
import type { QueryParams } from './query';
import type { Visibility } from './storage';

/**
 * Query validation that collects every problem before answering, so one 400 names them all.
 * [ours] An optional parameter sent empty (`prefix=`) counts as absent; a parameter sent twice
 * is a 400 rather than one copy being silently dropped.
 */
export class QueryChecker {
	readonly details: Detail[] = [];

	constructor(private readonly query: QueryParams) {}

	fail(field: string, message: string): void {
		this.details.push({ field, message });
	}

	/** The value, or undefined when absent, empty, repeated or not UTF-8 (the last two recorded). */
	private value(name: string): string | undefined {
		if (this.query.repeated.has(name)) {
			this.fail(name, `${name} must be given once`);
			return undefined;
		}
		if (this.query.invalidUtf8.has(name)) {
			this.fail(name, `${name} must be percent-encoded UTF-8`);
			return undefined;
		}
		const v = this.query.values.get(name);
		return v === '' ? undefined : v;
	}

	required(name: string, message: string): string {
		const before = this.details.length;
		const v = this.value(name);
		if (v === undefined && this.details.length === before) this.fail(name, message);
		return v ?? '';
	}

	optional(name: string): string | undefined {
		return this.value(name);
	}

	bucket(): { bucket: string; region: string } {
		return {
			bucket: this.required('bucket_name', 'Bucket name is required'),
			region: this.required('region', 'Region is required'),
		};
	}

	key(): string {
		const before = this.details.length;
		const key = this.value('key');
		if (key === undefined) {
			if (this.details.length === before) this.fail('key', 'Key is required');
			return '';
		}
		const problem = keyProblem(key);
		if (problem) this.fail('key', problem);
		return key;
	}

	/** [ours] private when omitted. */
	visibility(): Visibility {
		const v = this.value('visibility');
		if (v === undefined) return 'private';
		if (v !== 'public' && v !== 'private') {
			this.fail('visibility', 'Visibility must be "public" or "private"');
			return 'private';
		}
		return v;
	}

	integer(
		name: string,
		range: { min: number; max: number; required?: boolean; fallback?: number },
		message: string,
	): number | undefined {
		const before = this.details.length;
		const v = this.value(name);
		if (v === undefined) {
			if (range.required && this.details.length === before) this.fail(name, message);
			return range.fallback;
		}
		const n = /^\d{1,16}$/.test(v) ? Number(v) : NaN;
		if (!Number.isSafeInteger(n) || n < range.min || n > range.max) {
			this.fail(name, message);
			return range.fallback;
		}
		return n;
	}

	partNumber(required: boolean): number | undefined {
		return this.integer(
			'partNumber',
			{ min: 1, max: LIMITS.maxPartNumber, required },
			`Part number must be an integer from 1 to ${LIMITS.maxPartNumber}`,
		);
	}

	/** Informational only [ours]: validated when present, never enforced. */
	totalParts(): number | undefined {
		return this.integer(
			'totalParts',
			{ min: 1, max: LIMITS.maxPartNumber },
			`totalParts must be an integer from 1 to ${LIMITS.maxPartNumber}`,
		);
	}

	throwIfInvalid(): void {
		if (this.details.length > 0) throw validationFailed(this.details);
	}
}
