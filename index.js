// n8n discovers this package's nodes and credentials through the "n8n" section of package.json;
// this entry point exists so that `require('n8n-nodes-file-storage')` resolves.
module.exports = {};
