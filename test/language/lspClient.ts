// A minimal LSP client over stdio for tests and benchmarks: spawns a server process, speaks
// JSON-RPC with vscode-jsonrpc, and lets callers wait (bounded) for a matching publish.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from 'vscode-jsonrpc/node';
import type { InitializeResult } from 'vscode-languageserver';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const languageServerPath = join(repoRoot, 'dist', 'language-server.js');

export interface Diagnostic {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  severity?: number;
  code?: string | number;
  source?: string;
  message: string;
  data?: unknown;
}

export interface Publish {
  uri: string;
  version?: number;
  diagnostics: Diagnostic[];
}

interface Waiter {
  uri: string;
  accept: (publish: Publish) => boolean;
  resolve: (publish: Publish) => void;
  reject: (error: Error) => void;
}

export interface LspClient {
  connection: MessageConnection;
  process: ChildProcess;
  /** Every publish received so far, oldest first. */
  publishes: Publish[];
  /** Log messages the server sent (`window/logMessage`). */
  logs: { type: number; message: string }[];
  initialize(initializationOptions?: unknown, capabilities?: unknown): Promise<InitializeResult>;
  open(uri: string, languageId: string, text: string, version?: number): void;
  /** Replaces the whole text. */
  change(uri: string, version: number, text: string): void;
  close(uri: string): void;
  /** The next publish for `uri` (received after this call) that `accept` takes, or a timeout error. */
  nextPublish(uri: string, accept?: (publish: Publish) => boolean, timeoutMs?: number): Promise<Publish>;
  request<R>(method: string, params: unknown, timeoutMs?: number): Promise<R>;
  /** shutdown + exit, then waits for the process to end (killing it if it does not). */
  stop(): Promise<number | null>;
}

export interface StartOptions {
  command?: string;
  args?: string[];
  /** Answers `workspace/configuration` items by section. */
  configuration?: (section: string | undefined) => unknown;
}

export function startClient(options: StartOptions = {}): LspClient {
  const child = spawn(options.command ?? process.execPath, options.args ?? [languageServerPath, '--stdio'], {
    cwd: repoRoot,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stderr.resume();
  const connection = createMessageConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  const publishes: Publish[] = [];
  const logs: { type: number; message: string }[] = [];
  let waiters: Waiter[] = [];

  connection.onNotification('textDocument/publishDiagnostics', (publish: Publish) => {
    publishes.push(publish);
    const remaining: Waiter[] = [];
    for (const waiter of waiters) {
      if (waiter.uri === publish.uri && waiter.accept(publish)) waiter.resolve(publish);
      else remaining.push(waiter);
    }
    waiters = remaining;
  });
  connection.onNotification('window/logMessage', (message: { type: number; message: string }) => {
    logs.push(message);
  });
  connection.onRequest('workspace/configuration', (params: { items: { section?: string }[] }) =>
    params.items.map((item) => options.configuration?.(item.section) ?? null),
  );
  connection.onRequest('client/registerCapability', () => null);
  connection.onRequest('client/unregisterCapability', () => null);
  connection.onRequest('window/workDoneProgress/create', () => null);
  connection.onNotification(() => undefined);
  connection.onRequest(() => null);
  connection.listen();

  const exited = once(child, 'exit');
  // A server that dies fails every wait at once instead of at its timeout.
  child.on('exit', (code, signal) => {
    for (const waiter of waiters)
      waiter.reject(
        new Error(`the server exited (code ${code}, signal ${signal}) before publishing for ${waiter.uri}`),
      );
    waiters = [];
  });

  return {
    connection,
    process: child,
    publishes,
    logs,
    initialize(initializationOptions, capabilities) {
      return this.request<InitializeResult>(
        'initialize',
        {
          processId: process.pid,
          rootUri: pathToFileURL(repoRoot).href,
          workspaceFolders: [{ uri: pathToFileURL(repoRoot).href, name: 'repo' }],
          capabilities: capabilities ?? {
            workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true } },
            textDocument: {
              publishDiagnostics: {
                relatedInformation: true,
                versionSupport: true,
                codeDescriptionSupport: true,
                dataSupport: true,
              },
              completion: { completionItem: { snippetSupport: true, documentationFormat: ['markdown', 'plaintext'] } },
              hover: { contentFormat: ['markdown', 'plaintext'] },
              documentSymbol: { hierarchicalDocumentSymbolSupport: true },
              codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } } },
            },
          },
          initializationOptions,
        },
        30_000,
      ).then(async (result) => {
        await connection.sendNotification('initialized', {});
        return result;
      });
    },
    open(uri, languageId, text, version = 1) {
      void connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version, text } });
    },
    change(uri, version, text) {
      void connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version },
        contentChanges: [{ text }],
      });
    },
    close(uri) {
      void connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
    },
    nextPublish(uri, accept = () => true, timeoutMs = 10_000) {
      return new Promise<Publish>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters = waiters.filter((waiter) => waiter !== entry);
          reject(new Error(`no matching publishDiagnostics for ${uri} within ${timeoutMs} ms`));
        }, timeoutMs);
        const entry: Waiter = {
          uri,
          accept,
          resolve: (publish) => {
            clearTimeout(timer);
            resolve(publish);
          },
          reject: (error) => {
            clearTimeout(timer);
            reject(error);
          },
        };
        waiters.push(entry);
      });
    },
    request<R>(method: string, params: unknown, timeoutMs = 10_000) {
      return new Promise<R>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${method} got no answer within ${timeoutMs} ms`)), timeoutMs);
        connection.sendRequest<R>(method, params).then(
          (result) => {
            clearTimeout(timer);
            resolve(result);
          },
          (error: unknown) => {
            clearTimeout(timer);
            reject(error instanceof Error ? error : new Error(String(error)));
          },
        );
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        try {
          await this.request('shutdown', null, 5_000);
          await connection.sendNotification('exit');
        } catch {
          // A server that cannot shut down is killed below.
        }
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      connection.dispose();
      return child.exitCode;
    },
  };
}
