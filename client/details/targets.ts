// Which detail view a sidebar row opens: a plain function of the row, so the sidebar and the
// command that a keybinding or script runs agree. No VS Code here.
import type { TreeNode } from '../tree/nodes.ts';
import { targetFrom, type DetailTarget } from './messages.ts';

export function targetOfNode(node: TreeNode): DetailTarget | undefined {
  const { flow, trail, environment, snapshot, fingerprint, attestationId } = node.ref;
  switch (node.kind) {
    case 'trail':
      return targetFrom({ kind: 'trail', flow, trail });
    case 'attestation':
      return targetFrom(
        attestationId === undefined
          ? { kind: 'attestation', flow, trail, name: node.label }
          : { kind: 'attestation', flow, trail, attestationId },
      );
    case 'artifact':
      return targetFrom(
        trail === undefined ? { kind: 'artifact', flow, fingerprint } : { kind: 'artifact', flow, fingerprint, trail },
      );
    case 'snapshotArtifact':
      return targetFrom({ kind: 'artifact', flow, fingerprint });
    case 'environment':
      return targetFrom({ kind: 'environment', environment });
    case 'snapshot':
      return targetFrom({ kind: 'snapshot', environment, index: snapshot });
    default:
      return undefined;
  }
}

/** A tree row, or a target object from a script or keybinding, as a validated target. */
export function targetOfArgument(argument: unknown): DetailTarget | undefined {
  if (argument !== null && typeof argument === 'object' && 'ref' in argument && 'kind' in argument && 'id' in argument)
    return targetOfNode(argument as TreeNode);
  return targetFrom(argument);
}
