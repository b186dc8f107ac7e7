// The commands behind the detail views: "Show Details" (what selecting a row runs) and "Compare
// with Snapshot…" on a snapshot row, which asks for the other snapshot of the same environment.
import * as vscode from 'vscode';
import { apiOrExplain, showFailure, type CommandContext } from '../commands/context.ts';
import type { TreeNode } from '../tree/nodes.ts';
import { formatTime } from '../tree/nodes.ts';
import { targetFrom, type DetailTarget } from './messages.ts';
import type { DetailPanels } from './panels.ts';
import { targetOfArgument, targetOfNode } from './targets.ts';

/** Opens the row's (or the given target's) detail view; returns the target shown. */
export async function showDetails(panels: DetailPanels, argument: unknown): Promise<DetailTarget | undefined> {
  const target = targetOfArgument(argument);
  if (target === undefined) {
    void vscode.window.showInformationMessage('This row has no details to show.');
    return undefined;
  }
  await panels.show(target);
  return target;
}

/** The selected row's details, when it has any (a message or "Load more…" row has none). */
export async function showSelected(panels: DetailPanels, node: TreeNode): Promise<void> {
  const target = targetOfNode(node);
  if (target !== undefined) await panels.show(target);
}

/**
 * Compares a snapshot row with another snapshot of its environment, picked from a list (or given as
 * `{ environment, from, to }` by a script). Returns the comparison shown.
 */
export async function compareSnapshots(
  context: CommandContext,
  panels: DetailPanels,
  argument: unknown,
): Promise<DetailTarget | undefined> {
  const given = targetFrom({
    kind: 'compare',
    ...(typeof argument === 'object' && argument !== null && !('ref' in argument) ? argument : {}),
  });
  if (given !== undefined) {
    await panels.show(given, false);
    return given;
  }
  const node = argument as TreeNode | undefined;
  const environment = node?.ref?.environment;
  const index = node?.ref?.snapshot;
  if (environment === undefined || index === undefined) {
    void vscode.window.showInformationMessage('Pick a snapshot row in the Environments view to compare.');
    return undefined;
  }
  const api = await apiOrExplain(context);
  if (api === undefined) return undefined;
  try {
    const snapshots = await api.listSnapshots(environment, 1, 100);
    const items = snapshots
      .filter((snapshot) => snapshot.index !== index)
      .sort((a, b) => b.index - a.index)
      .map((snapshot) => ({
        label: `#${snapshot.index}`,
        description: [snapshot.to === 0 ? 'current' : undefined, formatTime(snapshot.from)].filter(Boolean).join(' · '),
        index: snapshot.index,
      }));
    if (items.length === 0) {
      void vscode.window.showInformationMessage(`${environment} has no other snapshot to compare #${index} with.`);
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(items, {
      title: `Compare ${environment} #${index} with…`,
      placeHolder: 'The other snapshot',
    });
    if (picked === undefined) return undefined;
    const target: DetailTarget = {
      kind: 'compare',
      environment,
      from: Math.min(index, picked.index),
      to: Math.max(index, picked.index),
    };
    await panels.show(target, false);
    return target;
  } catch (error) {
    showFailure(context, 'Comparing snapshots', error);
    return undefined;
  }
}
