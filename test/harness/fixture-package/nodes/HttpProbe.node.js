'use strict';
// Sends one authenticated request per item and returns what the server answered.
class HttpProbe {
	constructor() {
		this.description = {
			displayName: 'HTTP Probe',
			name: 'httpProbe',
			group: ['transform'],
			version: 1,
			description: 'Harness fixture',
			defaults: { name: 'HTTP Probe' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [
				{
					name: 'probeApi',
					required: true,
					displayOptions: { show: { authentication: ['function'] } },
				},
				{
					name: 'probeGenericApi',
					required: true,
					displayOptions: { show: { authentication: ['generic'] } },
				},
			],
			properties: [
				{
					displayName: 'Authentication',
					name: 'authentication',
					type: 'options',
					options: [
						{ name: 'Function', value: 'function' },
						{ name: 'Generic', value: 'generic' },
					],
					default: 'function',
				},
				{ displayName: 'Path', name: 'path', type: 'string', default: '/echo' },
			],
		};
	}

	async execute() {
		const items = this.getInputData();
		const out = [];
		for (let i = 0; i < items.length; i++) {
			const authentication = this.getNodeParameter('authentication', i);
			const credentialType = authentication === 'generic' ? 'probeGenericApi' : 'probeApi';
			const { baseUrl } = await this.getCredentials(credentialType, i);
			try {
				const response = await this.helpers.httpRequestWithAuthentication.call(this, credentialType, {
					method: 'POST',
					url: `${baseUrl}${this.getNodeParameter('path', i)}`,
					body: { item: i, ...items[i].json },
					json: true,
				});
				out.push({ json: response, pairedItem: { item: i } });
			} catch (error) {
				if (this.continueOnFail()) {
					out.push({ json: { error: error.message }, pairedItem: { item: i } });
					continue;
				}
				throw error;
			}
		}
		return [out];
	}
}

module.exports = { HttpProbe };
