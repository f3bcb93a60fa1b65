'use strict';
// Function-form authenticate, declared as a class method that uses `this` like the product's
// signing credential does.
const { createHash } = require('node:crypto');

class ProbeApi {
	constructor() {
		this.name = 'probeApi';
		this.displayName = 'Probe API';
		this.documentationUrl = 'https://example.com';
		this.properties = [
			{ displayName: 'Token', name: 'token', type: 'string', default: '' },
			{ displayName: 'Base URL', name: 'baseUrl', type: 'string', default: 'http://127.0.0.1:9' },
			{ displayName: 'Tag', name: 'tag', type: 'string', default: 'default-tag' },
		];
	}

	signature(requestOptions) {
		return createHash('sha256').update(`${requestOptions.method} ${requestOptions.url}`).digest('hex');
	}

	async authenticate(credentials, requestOptions) {
		return {
			...requestOptions,
			headers: {
				...requestOptions.headers,
				'x-probe-token': credentials.token,
				'x-probe-tag': credentials.tag,
				'x-probe-signature': this.signature(requestOptions),
			},
		};
	}
}

module.exports = { ProbeApi };
