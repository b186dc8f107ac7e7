// Search artifacts by commit SHA or fingerprint and reveal the hit in the Flows view.
import * as vscode from 'vscode';
import type { SearchArtifact } from '../../shared/apiClient/types.ts';
import { trailNode } from '../tree/flowModel.ts';
import type { TreeNode } from '../tree/nodes.ts';
import { apiOrExplain, argsOf, showFailure, withProgress, type CommandContext } from './context.ts';

const HEX_PREFIX = /^[0-9a-fA-F]{5,64}$/;

/** Returns the id of the revealed node, or undefined. */
export async function search(context: CommandContext, arg?: unknown): Promise<string | undefined> {
  const api = await apiOrExplain(context);
  if (!api) return undefined;
  const value =
    argsOf(arg).name ??
    (await vscode.window.showInputBox({
      title: 'Search Artifacts',
      prompt: 'Commit SHA or artifact fingerprint (at least 5 hex digits)',
      validateInput: (text) => (HEX_PREFIX.test(text.trim()) ? undefined : 'Enter 5 to 64 hexadecimal digits'),
      ignoreFocusOut: true,
    }));
  if (!value) return undefined;
  try {
    const result = await withProgress(`Searching ${value}…`, () => api.search(value.trim().toLowerCase()));
    const hit = await pickHit(result.artifacts);
    if (!hit) return undefined;
    return await revealArtifact(context, hit);
  } catch (error) {
    showFailure(context, `Searching '${value}'`, error);
    return undefined;
  }
}

async function pickHit(artifacts: SearchArtifact[]): Promise<SearchArtifact | undefined> {
  if (artifacts.length <= 1) return artifacts[0];
  const picked = await vscode.window.showQuickPick(
    artifacts.map((artifact) => ({
      label: artifact.name ?? artifact.fingerprint.slice(0, 12),
      description: `${artifact.flow ?? '?'}/${artifact.trail ?? '?'} · ${artifact.compliance_state ?? ''}`,
      detail: artifact.fingerprint,
      artifact,
    })),
    { placeHolder: `${artifacts.length} artifacts match`, ignoreFocusOut: true },
  );
  return picked?.artifact;
}

/** Loads flow → trail → artifact in the Flows view and selects the artifact. */
async function revealArtifact(context: CommandContext, hit: SearchArtifact): Promise<string | undefined> {
  const api = context.session.api;
  if (!api || !hit.flow || !hit.trail) return undefined;
  const { flows, flowsView } = context;
  const flowOf = async () =>
    (await flows.getChildren()).find((node) => node.kind === 'flow' && node.ref.flow === hit.flow);
  let flow = await flowOf();
  if (!flow) {
    // The flow was created after the view loaded its flows: reload them once.
    flows.refreshAll();
    flow = await flowOf();
  }
  if (!flow) return undefined;
  let trail: TreeNode | undefined = (await flows.getChildren(flow)).find(
    (node) => node.kind === 'trail' && node.ref.trail === hit.trail,
  );
  trail ??= flows.adopt(flow, trailNode(hit.flow, await api.getTrail(hit.flow, hit.trail)));
  const artifactOf = async (parent: TreeNode) =>
    (await flows.getChildren(parent)).find(
      (node) => node.kind === 'artifact' && node.ref.fingerprint === hit.fingerprint,
    );
  let artifact = await artifactOf(trail);
  if (!artifact) {
    // The trail row was loaded before the artifact was attested: reload it once.
    await flows.refresh(trail.id);
    artifact = await artifactOf(trail);
  }
  const target = artifact ?? trail;
  await flowsView.reveal(target, { select: true, focus: true, expand: true });
  return target.id;
}
