import { randomBytes } from 'crypto';

/**
 * A multipart/form-data body with one file field, built as a single Buffer: the
 * service's SDK sends the file as form field `file`, and a Buffer (unlike a stream)
 * can be re-sent on retry and has a known length.
 */
export interface FileForm {
	body: Buffer;
	contentType: string;
}

function asciiFallback(fileName: string): string {
	// Quotes, backslashes and line breaks would end the header parameter early.
	return fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
}

/** RFC 5987 value: encodeURIComponent leaves ' ( ) * ! alone, but ' delimits the charset. */
function extendedValue(fileName: string): string {
	return encodeURIComponent(fileName).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function fileForm(bytes: Buffer, fileName: string, fileContentType: string): FileForm {
	const boundary = `----n8nFileStorage${randomBytes(12).toString('hex')}`;
	const safeType = fileContentType.replace(/[\r\n]/g, '') || 'application/octet-stream';
	const head = Buffer.from(
		`--${boundary}\r\n` +
			`Content-Disposition: form-data; name="file"; filename="${asciiFallback(fileName)}"; filename*=UTF-8''${extendedValue(fileName)}\r\n` +
			`Content-Type: ${safeType}\r\n\r\n`,
		'utf8',
	);
	const tail = Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8');
	return {
		body: Buffer.concat([head, bytes, tail], head.length + bytes.length + tail.length),
		contentType: `multipart/form-data; boundary=${boundary}`,
	};
}
