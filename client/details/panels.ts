// The detail views in the editor area: one webview panel per kind, reused. Clicking through the
// sidebar (or a view's links) replaces what a kind's panel shows rather than piling up a tab per
// row, as a preview does; and because each kind has its own panel, a trail and one of its
// attestations (or two snapshots' comparison and one of them) can still sit side by side.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { html } from '../../shared/html.ts';
import type { ApiClient } from '../../shared/apiClient/client.ts';
import { ApiError } from '../../shared/apiClient/errors.ts';
import { notificationText } from '../commands/notificationText.ts';
import { detailDocument } from './render/document.ts';
import type { DetailPage } from './render/parts.ts';
import { failurePage, load, titleOf, type Loaded } from './load.ts';
import { messageFrom, type DetailKind, type DetailMessage, type DetailTarget } from './messages.ts';
import { openEvidence, saveEvidence } from './evidence.ts';

interface Shown {
  panel: vscode.WebviewPanel;
  target: DetailTarget;
  pages: Record<string, number>;
  /** The lists of the page on screen with their page counts. */
  lists: Record<string, number>;
  loaded: Loaded | undefined;
  /** Bumped by each load, so a slow answer never overwrites a newer target. */
  generation: number;
}

export class DetailPanels implements vscode.Disposable {
  private readonly panels = new Map<DetailKind, Shown>();
  private readonly extension: vscode.ExtensionContext;
  private readonly api: () => ApiClient | undefined;
  private readonly log: vscode.LogOutputChannel;

  constructor(extension: vscode.ExtensionContext, api: () => ApiClient | undefined, log: vscode.LogOutputChannel) {
    this.extension = extension;
    this.api = api;
    this.log = log;
  }

  /** Shows `target` in its kind's panel (created on first use), keeping focus where it was. */
  async show(target: DetailTarget, preserveFocus = true): Promise<void> {
    let shown = this.panels.get(target.kind);
    if (shown === undefined) {
      const panel = vscode.window.createWebviewPanel(
        `complianceEvidence.details.${target.kind}`,
        titleOf(target),
        { viewColumn: vscode.ViewColumn.Active, preserveFocus },
        {
          enableScripts: true,
          enableCommandUris: false,
          enableForms: false,
          // Only the extension's own stylesheet and script; nothing else on disk is reachable.
          localResourceRoots: [this.mediaRoot()],
          retainContextWhenHidden: false,
        },
      );
      const created: Shown = { panel, target, pages: {}, lists: {}, loaded: undefined, generation: 0 };
      shown = created;
      this.panels.set(target.kind, created);
      panel.onDidDispose(() => this.panels.get(target.kind) === created && this.panels.delete(target.kind));
      panel.webview.onDidReceiveMessage((message: unknown) => void this.receive(created, message));
    } else {
      shown.panel.reveal(undefined, preserveFocus);
    }
    shown.target = target;
    shown.pages = {};
    await this.reload(shown);
  }

  /** The target each open panel shows, for tests and the extension's API. */
  shownTargets(): DetailTarget[] {
    return [...this.panels.values()].map((shown) => shown.target);
  }

  dispose(): void {
    for (const shown of this.panels.values()) shown.panel.dispose();
    this.panels.clear();
  }

  private mediaRoot(): vscode.Uri {
    return vscode.Uri.joinPath(this.extension.extensionUri, 'dist', 'media');
  }

  private async reload(shown: Shown): Promise<void> {
    const generation = ++shown.generation;
    const target = shown.target;
    shown.panel.title = titleOf(target);
    shown.loaded = undefined;
    this.render(shown, { title: titleOf(target), body: loadingBody(), lists: {} });
    const api = this.api();
    let loaded: Loaded;
    try {
      if (api === undefined) throw new Error('Not connected: sign in or start the local server, then retry.');
      loaded = await load(api, target);
    } catch (error) {
      loaded = () => failurePage(titleOf(target), error);
    }
    if (generation !== shown.generation) return;
    shown.loaded = loaded;
    this.renderLoaded(shown);
  }

  private renderLoaded(shown: Shown): void {
    if (shown.loaded === undefined) return;
    let page: DetailPage;
    try {
      page = shown.loaded(shown.pages);
    } catch (error) {
      page = failurePage(titleOf(shown.target), error);
    }
    shown.panel.title = page.title;
    this.render(shown, page);
  }

  private render(shown: Shown, page: DetailPage): void {
    shown.lists = page.lists;
    const webview = shown.panel.webview;
    const media = this.mediaRoot();
    webview.html = detailDocument(shown.target.kind, page.title, page.body, {
      cspSource: webview.cspSource,
      nonce: randomBytes(18).toString('base64'),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(media, 'details.css')).toString(),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(media, 'details.js')).toString(),
    });
  }

  /** Acts on a message from a panel's page only once it has been validated. */
  private async receive(shown: Shown, raw: unknown): Promise<void> {
    const message = messageFrom(raw);
    if (message === undefined) {
      this.log.warn(
        `A detail view sent a message that is not one the extension accepts; ignored: ${JSON.stringify(raw)?.slice(0, 200)}`,
      );
      return;
    }
    try {
      await this.act(shown, message);
    } catch (error) {
      const reason = error instanceof ApiError ? error.detail : error instanceof Error ? error.message : String(error);
      this.log.error(`A detail view's request failed: ${reason}`);
      void vscode.window.showErrorMessage(notificationText(`Compliance Evidence: ${reason}`));
    }
  }

  private async act(shown: Shown, message: DetailMessage): Promise<void> {
    switch (message.type) {
      case 'open':
        return this.show(message.target, false);
      case 'external':
        // messageFrom admitted only an absolute http(s) URL.
        await vscode.env.openExternal(vscode.Uri.parse(message.url, true));
        return;
      case 'evidence': {
        const api = this.api();
        if (api === undefined) throw new Error('Not connected.');
        if (message.action === 'open') await openEvidence(this.extension, api, message);
        else await saveEvidence(api, message);
        return;
      }
      case 'page': {
        const pageCount = shown.lists[message.list];
        if (pageCount === undefined || message.page > pageCount) return;
        shown.pages = { ...shown.pages, [message.list]: message.page };
        this.renderLoaded(shown);
        return;
      }
      case 'retry':
        return this.reload(shown);
    }
  }
}

function loadingBody(): DetailPage['body'] {
  return html`<p class="empty" role="status">Loading…</p>`;
}
