// The plain description of one tree row, built from API JSON without VS Code. The providers turn it
// into a TreeItem; tests and the extension's test API read it as it is.
import type { ComplianceState } from '../../shared/apiClient/types.ts';

export type NodeKind =
  | 'flow'
  | 'trail'
  | 'attestation'
  | 'artifact'
  | 'environment'
  | 'snapshot'
  | 'snapshotArtifact'
  | 'loadMore'
  | 'message'
  | 'error';

/** Where a node sits in the API, so commands started from it know their target. */
export interface NodeRef {
  flow?: string;
  trail?: string;
  environment?: string;
  snapshot?: number;
  fingerprint?: string;
  /** The attestation a row shows, when one fills its slot. */
  attestationId?: string;
  /** For "Load more…": the page to fetch next. */
  nextPage?: number;
  /** For "Load more…": the parent's page, from which the new rows' pages are derived. */
  parentUrl?: string;
  /** The environment has a compliance verdict (policies attached); without one, snapshots show none either. */
  judged?: boolean;
}

export interface TreeNode {
  /** Stable across refreshes, unique in its view. */
  id: string;
  kind: NodeKind;
  label: string;
  description?: string;
  /** Markdown. */
  tooltip?: string;
  compliance?: ComplianceState;
  /** Icon for nodes without compliance (an exited artifact, a message); a codicon name. */
  icon?: string;
  expandable: boolean;
  /** Capability flags, space separated in `contextValue` and matched by regex in menus. */
  capabilities: string[];
  htmlUrl?: string;
  ref: NodeRef;
  /** Children known when the node is built (a trail's attestations); otherwise fetched on expand. */
  children?: TreeNode[];
}

/** Maps the API's compliance vocabulary (states, booleans, slot statuses) onto the four shown. */
export function complianceOf(
  state: string | null | undefined,
  isCompliant?: boolean | null,
): ComplianceState | undefined {
  switch (state) {
    case 'COMPLIANT':
    case 'NON-COMPLIANT':
    case 'INCOMPLETE':
    case 'MISSING':
      return state;
  }
  if (isCompliant === true) return 'COMPLIANT';
  if (isCompliant === false) return 'NON-COMPLIANT';
  return undefined;
}

/** A node in place of children that could not be fetched: the view shows why instead of failing. */
export function errorNode(parentId: string, message: string): TreeNode {
  return {
    id: `${parentId}/error`,
    kind: 'error',
    label: message,
    icon: 'error',
    expandable: false,
    capabilities: ['error'],
    ref: {},
  };
}

export function messageNode(parentId: string, message: string): TreeNode {
  return {
    id: `${parentId}/message`,
    kind: 'message',
    label: message,
    icon: 'info',
    expandable: false,
    capabilities: [],
    ref: {},
  };
}

export function loadMoreNode(parentId: string, ref: NodeRef): TreeNode {
  return {
    id: `${parentId}/more/${ref.nextPage}`,
    kind: 'loadMore',
    label: 'Load more…',
    icon: 'ellipsis',
    expandable: false,
    capabilities: ['loadMore'],
    ref,
  };
}

export function formatTime(epochSeconds: number | null | undefined): string | undefined {
  if (typeof epochSeconds !== 'number' || !Number.isFinite(epochSeconds) || epochSeconds <= 0) return undefined;
  return new Date(epochSeconds * 1000)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');
}

/** Adds the capability that enables "Open in Browser" when the node has a page. */
export function withUrl(capabilities: string[], htmlUrl: string | undefined): string[] {
  return htmlUrl ? [...capabilities, 'openInBrowser'] : capabilities;
}
