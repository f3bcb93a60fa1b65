'use strict';
// Declarative (generic) authenticate, resolved through n8n's expression engine.
class ProbeGenericApi {
	constructor() {
		this.name = 'probeGenericApi';
		this.displayName = 'Probe Generic API';
		this.documentationUrl = 'https://example.com';
		this.properties = [
			{ displayName: 'Token', name: 'token', type: 'string', default: '' },
			{ displayName: 'Base URL', name: 'baseUrl', type: 'string', default: '' },
		];
		this.authenticate = {
			type: 'generic',
			properties: {
				headers: { Authorization: '=Bearer {{$credentials.token}}' },
				qs: { via: 'generic' },
			},
		};
	}
}

module.exports = { ProbeGenericApi };
