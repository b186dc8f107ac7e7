// The extension starts the same bundle over Node IPC (`--node-ipc`); the transport must work too.
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { createMessageConnection, IPCMessageReader, IPCMessageWriter } from 'vscode-jsonrpc/node';
import { languageServerPath, repoRoot } from './lspClient.ts';

describe('language server over Node IPC', function () {
  this.timeout(30_000);

  it('initializes, publishes diagnostics and shuts down', async () => {
    const child = fork(languageServerPath, ['--node-ipc'], {
      cwd: repoRoot,
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    const exited = once(child, 'exit');
    const connection = createMessageConnection(new IPCMessageReader(child), new IPCMessageWriter(child));
    const uri = 'file:///w/ipc.flow-template.yaml';
    const published = new Promise<{ diagnostics: { code: string }[] }>((resolve) => {
      connection.onNotification(
        'textDocument/publishDiagnostics',
        (params: { uri: string; diagnostics: { code: string }[] }) => {
          if (params.uri === uri) resolve(params);
        },
      );
    });
    connection.listen();
    try {
      const result = await connection.sendRequest<{ capabilities: { hoverProvider: boolean } }>('initialize', {
        processId: process.pid,
        rootUri: null,
        capabilities: {},
        initializationOptions: { complianceEvidence: { diagnostics: { debounceMs: 0 } } },
      });
      assert.equal(result.capabilities.hoverProvider, true);
      await connection.sendNotification('initialized', {});
      await connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId: 'yaml', version: 1, text: 'version: 2\n' },
      });
      assert.deepEqual(
        (await published).diagnostics.map((d) => d.code),
        ['template/bad-version'],
      );
      await connection.sendRequest('shutdown');
      await connection.sendNotification('exit');
      await exited;
      assert.equal(child.exitCode, 0);
    } finally {
      connection.dispose();
      if (child.exitCode === null) child.kill();
    }
  });
});
