// The one answer to "which server, with which key": the local server while it runs (until the user
// picks the remote), otherwise the remote from the settings with the key from SecretStorage.
// Publishes the state as context keys that the welcome views match.
import * as vscode from 'vscode';
import { ApiClient } from '../../shared/apiClient/client.ts';
import type { ServerAccess } from '../../shared/protocol.ts';
import { resolveConnection, type Connection, type LocalServerInfo } from './connection.ts';
import { connectionSettings } from './settings.ts';

/** SecretStorage key of the remote API key. Never written to settings or logs. */
const REMOTE_KEY_SECRET = 'complianceEvidence.apiKey';

export type ConnectionState = 'unconfigured' | 'signedOut' | 'unreachable' | 'ready';

export class Session implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the server, org or key changes: views reload from scratch. */
  readonly onDidChange = this.changed.event;
  private local: (LocalServerInfo & { key: string }) | undefined;
  private preferRemote = false;
  private current: Connection = { kind: 'unconfigured', problem: 'Not resolved yet.' };
  private client: ApiClient | undefined;
  private state: ConnectionState | undefined;
  private readonly secrets: vscode.SecretStorage;

  constructor(secrets: vscode.SecretStorage) {
    this.secrets = secrets;
  }

  get connection(): Connection {
    return this.current;
  }

  /** The client for the views and commands; undefined when not configured or not signed in. */
  get api(): ApiClient | undefined {
    return this.client;
  }

  get usesLocal(): boolean {
    return this.current.kind === 'local';
  }

  /** Resolves the connection again (after settings, sign-in or local server changes). */
  async update(): Promise<void> {
    this.current = resolveConnection(connectionSettings(), this.local, this.preferRemote);
    this.client = undefined;
    if (this.current.kind === 'local' && this.local) {
      const key = this.local.key;
      this.client = new ApiClient({ baseUrl: this.current.apiBase, org: this.current.org, token: () => key });
      this.setState('ready');
    } else if (this.current.kind === 'remote') {
      if (await this.secrets.get(REMOTE_KEY_SECRET)) {
        this.client = new ApiClient({
          baseUrl: this.current.apiBase,
          org: this.current.org,
          token: () => this.secrets.get(REMOTE_KEY_SECRET),
        });
        this.setState('ready');
      } else this.setState('signedOut');
    } else this.setState('unconfigured');
    this.changed.fire();
  }

  /** The server, org and key the language server's previews ask with; null when there is none. */
  async serverAccess(): Promise<ServerAccess | null> {
    if (this.current.kind === 'local' && this.local)
      return { apiBase: this.current.apiBase, org: this.current.org, key: this.local.key };
    if (this.current.kind !== 'remote') return null;
    const key = await this.secrets.get(REMOTE_KEY_SECRET);
    return key === undefined ? null : { apiBase: this.current.apiBase, org: this.current.org, key };
  }

  /** The views found the server unreachable, or it refused the key. */
  reportProblem(state: 'unreachable' | 'signedOut'): void {
    this.setState(state);
  }

  async useLocal(local: (LocalServerInfo & { key: string }) | undefined): Promise<void> {
    this.local = local;
    if (local) this.preferRemote = false;
    await this.update();
  }

  async useRemote(): Promise<void> {
    this.preferRemote = true;
    await this.update();
  }

  async signIn(key: string): Promise<void> {
    // A running local server keeps the views until the user picks the remote from its status item.
    await this.secrets.store(REMOTE_KEY_SECRET, key);
    await this.update();
  }

  async signOut(): Promise<void> {
    await this.secrets.delete(REMOTE_KEY_SECRET);
    await this.update();
  }

  async isSignedIn(): Promise<boolean> {
    return (await this.secrets.get(REMOTE_KEY_SECRET)) !== undefined;
  }

  private setState(state: ConnectionState): void {
    if (state === this.state) return;
    this.state = state;
    void vscode.commands.executeCommand('setContext', 'complianceEvidence.connection', state);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
