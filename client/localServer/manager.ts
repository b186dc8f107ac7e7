// The local API server as the user sees it: start/stop from the palette, a status bar item with
// its state and port, its output in a log channel, its admin key in SecretStorage.
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { DEFAULT_LOCAL_ORG } from '../auth/connection.ts';
import { startLocalServer, type RunningServer } from './process.ts';

const ADMIN_KEY_SECRET = 'complianceEvidence.localServer.apiKey';

export type LocalServerState = 'stopped' | 'starting' | 'running' | 'failed';

export interface LocalServerStatus {
  state: LocalServerState;
  url?: string;
  org?: string;
  pid?: number;
  /** Why the last start failed or why the server ended. */
  reason?: string;
}

export class LocalServerManager implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<LocalServerStatus>();
  readonly onDidChange = this.changed.event;
  private server: RunningServer | undefined;
  private current: LocalServerStatus = { state: 'stopped' };
  private stopping = false;
  private readonly item: vscode.StatusBarItem;
  private readonly context: vscode.ExtensionContext;
  readonly log: vscode.LogOutputChannel;

  constructor(context: vscode.ExtensionContext) {
    this.context = context;
    this.log = vscode.window.createOutputChannel('Compliance Evidence Local Server', { log: true });
    this.item = vscode.window.createStatusBarItem('complianceEvidence.localServer', vscode.StatusBarAlignment.Left, 10);
    this.item.name = 'Compliance Evidence Local Server';
    this.item.command = 'complianceEvidence.localServer.menu';
  }

  get status(): LocalServerStatus {
    return this.current;
  }

  /** The admin key, generated once and kept in SecretStorage. */
  async adminKey(): Promise<string> {
    const existing = await this.context.secrets.get(ADMIN_KEY_SECRET);
    if (existing) return existing;
    // Hex: a key starting with '-' would read as an option on the server's command line.
    const key = randomBytes(24).toString('hex');
    await this.context.secrets.store(ADMIN_KEY_SECRET, key);
    return key;
  }

  /** Starts the server unless it runs; throws with the reason when it cannot start. */
  async start(): Promise<LocalServerStatus> {
    if (this.current.state === 'running' || this.current.state === 'starting') return this.current;
    const org =
      vscode.workspace.getConfiguration('complianceEvidence').get<string>('org', '').trim() || DEFAULT_LOCAL_ORG;
    const dataDir = path.join(this.context.globalStorageUri.fsPath, 'local-server');
    this.set({ state: 'starting', org });
    try {
      await mkdir(dataDir, { recursive: true });
      const started = Date.now();
      this.log.info(
        `Starting ${path.basename(process.execPath)} dist/api-server.js with data in ${dataDir}, org ${org}`,
      );
      const server = await startLocalServer({
        nodePath: process.execPath,
        script: this.context.asAbsolutePath(path.join('dist', 'api-server.js')),
        dataDir,
        org,
        apiKey: await this.adminKey(),
        onOutput: (line, stream) => (stream === 'stderr' ? this.log.warn(line) : this.log.info(line)),
      });
      this.server = server;
      this.log.info(`Ready at ${server.url} (pid ${server.pid}) in ${Date.now() - started} ms`);
      void server.exited.then((code) => this.onExit(server, code));
      return this.set({ state: 'running', url: server.url, org, pid: server.pid });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.log.error(reason);
      this.set({ state: 'failed', org, reason });
      throw error;
    }
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.stopping = true;
    try {
      await server.stop();
    } finally {
      this.stopping = false;
    }
  }

  private onExit(server: RunningServer, code: number | string): void {
    if (server !== this.server) return;
    this.server = undefined;
    if (this.stopping) {
      this.log.info('Stopped.');
      this.set({ state: 'stopped' });
    } else {
      const reason = `The local server exited unexpectedly (${code}); see its log.`;
      this.log.error(reason);
      this.set({ state: 'failed', reason });
      void vscode.window.showErrorMessage(reason, 'Open Log').then((choice) => choice && this.log.show());
    }
  }

  private set(status: LocalServerStatus): LocalServerStatus {
    this.current = status;
    this.render();
    void vscode.commands.executeCommand(
      'setContext',
      'complianceEvidence.localServer.running',
      status.state === 'running',
    );
    this.changed.fire(status);
    return status;
  }

  private render(): void {
    const { state, url, reason } = this.current;
    const port = url ? new URL(url).port : undefined;
    this.item.backgroundColor = state === 'failed' ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    switch (state) {
      case 'stopped':
        this.item.hide();
        return;
      case 'starting':
        this.item.text = '$(loading~spin) Local server';
        this.item.tooltip = 'Compliance Evidence local server is starting…';
        break;
      case 'running':
        this.item.text = `$(server) Local server :${port}`;
        this.item.tooltip = `Compliance Evidence local server at ${url}. Click for actions.`;
        break;
      case 'failed':
        this.item.text = '$(error) Local server';
        this.item.tooltip = `Compliance Evidence local server failed: ${reason}`;
        break;
    }
    this.item.show();
  }

  dispose(): void {
    void this.stop();
    this.item.dispose();
    this.log.dispose();
    this.changed.dispose();
  }
}
