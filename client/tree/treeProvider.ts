// One provider class behind both views: caches children per node, turns failures into error rows,
// pages with "Load more…", and refreshes one node at a time after our own commands.
import * as vscode from 'vscode';
import type { ApiClient } from '../../shared/apiClient/client.ts';
import { ApiError } from '../../shared/apiClient/errors.ts';
import { errorNode, type TreeNode } from './nodes.ts';
import { treeItemOf } from './treeItem.ts';
import { loadedAncestorId } from './rowIds.ts';

/** What a view fetches; each function builds plain nodes from API JSON. */
export interface TreeSource {
  roots(api: ApiClient): Promise<TreeNode[]>;
  children(api: ApiClient, node: TreeNode): Promise<TreeNode[]>;
  /** The nodes that replace a "Load more…" row: the next page, maybe with its own "Load more…". */
  more(api: ApiClient, loadMore: TreeNode): Promise<TreeNode[]>;
  /** A fresh copy of one node (e.g. a trail after an attestation); undefined to refetch its children only. */
  reload?(api: ApiClient, node: TreeNode): Promise<TreeNode | undefined>;
}

/** How the root load ended, for the welcome views. */
export type RootState = 'ready' | 'empty' | 'unreachable' | 'unauthorized' | 'failed';

export class NodeTreeProvider implements vscode.TreeDataProvider<TreeNode> {
  private readonly changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly rootStates = new vscode.EventEmitter<RootState>();
  readonly onDidLoadRoots = this.rootStates.event;
  private readonly childrenOf = new Map<string, TreeNode[]>();
  private readonly parentOf = new Map<string, TreeNode | undefined>();
  private readonly byId = new Map<string, TreeNode>();
  private roots: TreeNode[] | undefined;
  private readonly source: TreeSource;
  private readonly api: () => ApiClient | undefined;

  constructor(source: TreeSource, api: () => ApiClient | undefined) {
    this.source = source;
    this.api = api;
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return treeItemOf(node);
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return this.parentOf.get(node.id);
  }

  node(id: string): TreeNode | undefined {
    return this.byId.get(id);
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    const api = this.api();
    if (!node) {
      if (!api) return [];
      if (!this.roots) this.roots = this.remember(undefined, await this.loadRoots(api));
      return this.roots;
    }
    const cached = this.childrenOf.get(node.id);
    if (cached) return cached;
    let children: TreeNode[];
    if (node.children) children = node.children;
    else if (!api) children = [];
    else children = await this.guard(node.id, () => this.source.children(api, node));
    this.childrenOf.set(node.id, this.remember(node, children));
    return children;
  }

  /** Everything again, from the roots. */
  refreshAll(): void {
    this.roots = undefined;
    this.childrenOf.clear();
    this.parentOf.clear();
    this.byId.clear();
    this.changed.fire(undefined);
  }

  /**
   * One node again (by id, as the tree knows it); falls back to everything when it is not shown.
   * With `keepChildren`, only the row itself is reloaded (e.g. a flow's state after an attestation).
   */
  async refresh(id: string, options: { keepChildren?: boolean } = {}): Promise<void> {
    const node = this.byId.get(id);
    const api = this.api();
    if (!api) return;
    if (!node) {
      // Not loaded (never expanded): the nearest loaded ancestor shows what changed below it.
      const ancestor = loadedAncestorId(id, (candidate) => this.byId.has(candidate));
      if (options.keepChildren) return;
      return ancestor ? this.refresh(ancestor) : this.refreshAll();
    }
    const fresh = this.source.reload ? await this.source.reload(api, node).catch(() => undefined) : undefined;
    if (options.keepChildren) {
      if (!fresh) return;
      const { children: _children, ...row } = fresh;
      Object.assign(node, row);
    } else {
      if (fresh) Object.assign(node, fresh);
      this.forget(node.id);
    }
    this.changed.fire(node);
  }

  /** Replaces a "Load more…" row with the next page. */
  async loadMore(loadMore: TreeNode): Promise<void> {
    const api = this.api();
    const parent = this.parentOf.get(loadMore.id);
    const siblings = parent ? this.childrenOf.get(parent.id) : this.roots;
    if (!api || !siblings) return;
    const more = await this.guard(loadMore.id, () => this.source.more(api, loadMore));
    const at = siblings.indexOf(loadMore);
    if (at < 0) return;
    siblings.splice(
      at,
      1,
      ...this.remember(
        parent,
        more.filter((node) => !siblings.some((other) => other.id === node.id)),
      ),
    );
    this.byId.delete(loadMore.id);
    this.changed.fire(parent);
  }

  /** Puts a node fetched out of band (e.g. a search result's trail) under its parent, so it can be revealed. */
  adopt(parent: TreeNode, node: TreeNode): TreeNode {
    const existing = this.byId.get(node.id);
    if (existing) return existing;
    const siblings = this.childrenOf.get(parent.id);
    if (siblings) siblings.push(node);
    else this.childrenOf.set(parent.id, [node]);
    this.remember(parent, [node]);
    this.changed.fire(parent);
    return node;
  }

  private async loadRoots(api: ApiClient): Promise<TreeNode[]> {
    try {
      const roots = await this.source.roots(api);
      this.rootStates.fire(roots.length === 0 ? 'empty' : 'ready');
      return roots;
    } catch (error) {
      if (error instanceof ApiError && error.unreachable) this.rootStates.fire('unreachable');
      else if (error instanceof ApiError && error.status === 401) this.rootStates.fire('unauthorized');
      else {
        this.rootStates.fire('failed');
        return [errorNode('root', messageOf(error))];
      }
      return [];
    }
  }

  private async guard(id: string, load: () => Promise<TreeNode[]>): Promise<TreeNode[]> {
    try {
      return await load();
    } catch (error) {
      return [errorNode(id, messageOf(error))];
    }
  }

  private remember(parent: TreeNode | undefined, nodes: TreeNode[]): TreeNode[] {
    for (const node of nodes) {
      this.parentOf.set(node.id, parent);
      this.byId.set(node.id, node);
    }
    return nodes;
  }

  private forget(id: string): void {
    for (const child of this.childrenOf.get(id) ?? []) {
      this.forget(child.id);
      this.byId.delete(child.id);
      this.parentOf.delete(child.id);
    }
    this.childrenOf.delete(id);
  }
}

export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.detail;
  return error instanceof Error ? error.message : String(error);
}
