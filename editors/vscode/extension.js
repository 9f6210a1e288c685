// The VS Code side of `agentplat lsp`: a client only. It starts the agentplat executable the user
// has installed (setting agentplat.command) as `agentplat lsp --stdio` for the YAML files that
// agentplat.files names; lint, hover, completion and fixes all come from the server.
'use strict';
const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration('agentplat');
  const command = config.get('command', 'agentplat');
  const files = config.get('files', '**/*values*.{yaml,yml}');
  const run = { command, args: ['lsp', '--stdio'], transport: TransportKind.stdio };
  client = new LanguageClient('agentplat', 'agentplat', { run, debug: run }, {
    documentSelector: [{ scheme: 'file', language: 'yaml', pattern: files }],
  });
  context.subscriptions.push({ dispose: () => client && client.stop() });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
