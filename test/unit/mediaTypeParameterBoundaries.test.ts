/**
 * Content types compared as media types (files/mediaType.ts) must not take two types a reader decodes differently for
 * the same: Folder → Move deletes a source whose file at the destination is "the same" (skipped), so a wrong "same"
 * loses the only file with the right content type (docs/api-choices.md, "Content types compare as media types").
 */
import { sameMediaType } from '../../nodes/FileStorage/files/mediaType';

describe('sameMediaType keeps parameters apart', () => {
	it('a quoted value holding ";" is not two parameters (one charset is "utf-8;q=1", the other utf-8)', () => {
		// Parameters joined with ';' for comparison: ["charset=utf-8", "q=1"] and ["charset=utf-8;q=1"] join alike.
		expect(sameMediaType('text/csv; charset=utf-8; q=1', 'text/csv; charset="utf-8;q=1"')).toBe(false);
	});

	it('a charset given twice in another order is not the same type (a reader takes the first)', () => {
		expect(
			sameMediaType('text/csv; charset=utf-8; charset=iso-8859-1', 'text/csv; charset=iso-8859-1; charset=utf-8'),
		).toBe(false);
	});
});
