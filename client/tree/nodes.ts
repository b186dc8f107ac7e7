// The plain description of one tree row, built from API JSON without VS Code. The providers turn it
// into a TreeItem; tests and the extension's test API read it as it is.
import {
  attestationVerdict,
  trailVerdict,
  verdictOf,
  type ShownState,
  type StateColour,
  type Verdict,
} from '../../shared/compliance/vocabulary.ts';
import { md, type Markdown } from './markdown.ts';

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
  /** The state's word (shared/compliance/vocabulary.ts); its icon and colour follow from it. */
  compliance?: ShownState;
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

/** The theme colour of each colour token: the tree's icons, and the detail views' words (details.css), use these. */
export const STATE_THEME_COLOURS: Readonly<Record<StateColour, string>> = {
  passed: 'testing.iconPassed',
  failed: 'testing.iconFailed',
  pending: 'testing.iconQueued',
  neutral: 'descriptionForeground',
};

/** A trail's or slot's state (or an attestation's boolean) as the vocabulary shows it; undefined when the API gave neither. */
export function complianceOf(state: string | null | undefined, isCompliant?: boolean | null): Verdict | undefined {
  switch (state) {
    case 'COMPLIANT':
    case 'NON-COMPLIANT':
    case 'INCOMPLETE':
      return trailVerdict(state);
    case 'MISSING':
      return verdictOf('MISSING', 'Expected by the template, not reported yet.');
  }
  if (isCompliant === true || isCompliant === false) return attestationVerdict(isCompliant);
  return undefined;
}

/** A tooltip's first lines: the title with the state's word, then the state's reason. */
export function verdictLines(title: Markdown, verdict: Verdict | undefined): Markdown[] {
  return verdict === undefined ? [md`${title} — no verdict`] : [md`${title} — ${verdict.state}`, md`${verdict.reason}`];
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
