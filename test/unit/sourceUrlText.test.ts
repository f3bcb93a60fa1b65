import { readFailureReason } from '../../nodes/FileStorage/upload/streamChunks';
import { shownText, shownUrl } from '../../nodes/FileStorage/upload/urlSource';

describe('what of a Source URL may be shown', () => {
	it.each([
		['ftp://someone:pw@files.example/a.mp4?sig=1#x', 'ftp://files.example/a.mp4'],
		['https://someone:pw@exa mple.com/a b.mp4', 'https://exa mple.com/a b.mp4'],
		['someone:pw@example.com/a.mp4', 'example.com/a.mp4'],
		['https:\\\\someone:pw@example.com\\a.mp4', 'https:\\\\example.com\\a.mp4'],
		['a:b@c@example.com/x@y', 'example.com/x@y'],
		['example.com/videos/talk.mp4', 'example.com/videos/talk.mp4'],
	])('text that is not a usable URL, %s, loses its user info and query', (text, shown) => {
		expect(shownText(text)).toBe(shown);
	});

	it('a URL keeps its scheme, host, port and path only', () => {
		expect(shownUrl(new URL('https://someone:pw@example.com:8443/a/b.mp4?sig=1#t'))).toBe(
			'https://example.com:8443/a/b.mp4',
		);
	});

	it('a read failure that quotes a URL quotes it without user info or query', () => {
		const error = new Error('request to https://someone:pw@example.com/a.mp4?sig=secret failed, reason: boom');
		expect(readFailureReason(error)).toBe('request to https://example.com/a.mp4 failed, reason: boom');
	});
});
