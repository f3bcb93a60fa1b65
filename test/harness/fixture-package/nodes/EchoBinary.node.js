'use strict';
// Streams an input binary the way the product node reads large files and reports what it saw.
const { createHash } = require('node:crypto');
const { NodeOperationError } = require('n8n-workflow');

const MiB = 1024 * 1024;

class EchoBinary {
	constructor() {
		this.description = {
			displayName: 'Echo Binary',
			name: 'echoBinary',
			group: ['transform'],
			version: [1, 2],
			defaultVersion: 2,
			description: 'Harness fixture',
			defaults: { name: 'Echo Binary' },
			inputs: ['main'],
			outputs: ['main'],
			properties: [
				{
					displayName: 'Binary Field',
					name: 'binaryPropertyName',
					type: 'string',
					default: 'data',
					required: true,
				},
				{ displayName: 'Label', name: 'label', type: 'string', default: '' },
				{ displayName: 'Fail', name: 'fail', type: 'boolean', default: false },
				{
					displayName: 'Output Copy',
					name: 'outputCopy',
					type: 'options',
					options: [
						{ name: 'None', value: 'none' },
						{ name: 'Stored (from stream)', value: 'stored' },
						{ name: 'Inline Base64', value: 'inline' },
					],
					default: 'none',
				},
			],
		};
	}

	async execute() {
		const items = this.getInputData();
		const out = [];
		for (let i = 0; i < items.length; i++) {
			try {
				const label = this.getNodeParameter('label', i);
				if (this.getNodeParameter('fail', i)) {
					throw new NodeOperationError(this.getNode(), `Failing on purpose: ${label}`, {
						itemIndex: i,
						description: 'The fail flag was set',
					});
				}
				const field = this.getNodeParameter('binaryPropertyName', i);
				const binary = this.helpers.assertBinaryData(i, field);

				const hash = createHash('sha256');
				const chunkSizes = [];
				if (binary.id) {
					const stream = await this.helpers.getBinaryStream(binary.id, MiB);
					for await (const chunk of stream) {
						hash.update(chunk);
						chunkSizes.push(chunk.length);
					}
				} else {
					const buffer = await this.helpers.getBinaryDataBuffer(i, field);
					hash.update(buffer);
					chunkSizes.push(buffer.length);
				}
				const size = chunkSizes.reduce((a, b) => a + b, 0);
				const sha256 = hash.digest('hex');

				const result = {
					json: {
						label,
						size,
						sha256,
						stored: Boolean(binary.id),
						chunks: chunkSizes.length,
						maxChunk: Math.max(0, ...chunkSizes),
						fileName: binary.fileName ?? null,
						mimeType: binary.mimeType,
						typeVersion: this.getNode().typeVersion,
					},
					binary: {
						digest: await this.helpers.prepareBinaryData(Buffer.from(sha256), 'digest.txt', 'text/plain'),
					},
					pairedItem: { item: i },
				};
				const copy = this.getNodeParameter('outputCopy', i);
				if (copy === 'stored' && binary.id) {
					result.binary.copy = await this.helpers.prepareBinaryData(
						await this.helpers.getBinaryStream(binary.id),
						binary.fileName,
						binary.mimeType,
					);
				} else if (copy === 'inline') {
					const buffer = await this.helpers.getBinaryDataBuffer(i, field);
					result.binary.copy = { data: buffer.toString('base64'), mimeType: binary.mimeType };
				}
				out.push(result);
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

module.exports = { EchoBinary };
