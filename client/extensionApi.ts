// What activate() returns: a small read-only window on the extension's state, so tests (and other
// extensions) can check what the views hold without reading pixels.
import type { Connection } from './auth/connection.ts';
import type { CommandContext } from './commands/context.ts';
import type { LocalServerStatus } from './localServer/manager.ts';
import type { DetailTarget } from './details/messages.ts';
import type { TreeNode } from './tree/nodes.ts';

export interface ExtensionApi {
  /** How long activate() took, in milliseconds. */
  readonly activationMs: number;
  localServer(): LocalServerStatus;
  /** The server the views talk to (no key). */
  connection(): Connection;
  /** The rows of a view under `id` (the roots when omitted), loaded as the tree loads them. */
  children(view: 'flows' | 'environments', id?: string): Promise<TreeNode[]>;
  /** What each open detail panel shows. */
  details(): DetailTarget[];
}

export function createExtensionApi(context: CommandContext, activationMs: number): ExtensionApi {
  return {
    activationMs,
    localServer: () => ({ ...context.localServer.status }),
    connection: () => ({ ...context.session.connection }),
    details: () => context.details.shownTargets(),
    async children(view, id) {
      const provider = view === 'flows' ? context.flows : context.environments;
      if (id === undefined) return provider.getChildren();
      const node = provider.node(id);
      if (!node) throw new Error(`No row '${id}' is loaded in the ${view} view; load its parent first.`);
      return provider.getChildren(node);
    },
  };
}
