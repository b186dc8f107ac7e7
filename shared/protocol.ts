// The messages between the extension (client/language) and the language server (server/language)
// beyond LSP itself, each written once with the types of what it carries: both ends import this
// module, so neither can send a name or a shape the other does not read. Typed with vscode-jsonrpc's
// message types, which both ends' LSP libraries take in place of a method name.
import { NotificationType, RequestType, RequestType0 } from 'vscode-jsonrpc';

/** The `source` of the language server's diagnostics, by which the extension tells them from others'. */
export const diagnosticSource = 'compliance-evidence';

/** Which API server the previews ask. */
export interface ServerAccess {
  /** Ends in `/api/v2`. */
  apiBase: string;
  org: string;
  key: string;
  /** How long an answer may take before the server counts as not connected; 4 s when absent. */
  timeoutMs?: number;
}

/**
 * Sent by the extension whenever its connection changes; null when there is none. The key travels
 * only here: never on the language server's command line, never in a log.
 */
export const serverAccessNotification = new NotificationType<ServerAccess | null>('complianceEvidence/serverAccess');

/** One entry of the list a lens opens (a quick pick item in the editor). */
export interface PreviewItem {
  label: string;
  description?: string;
  detail?: string;
}

/** What a lens opens: a title and the entries. */
export interface PreviewList {
  title: string;
  items: PreviewItem[];
  /** Said instead of an empty list. */
  empty: string;
}

/** Why a request answers no list: not connected, errors to fix first, no such environment. */
export interface PreviewProblem {
  problem: string;
}

/** The org's environments, for the picker of a policy dry-run. */
export const environmentsRequest = new RequestType0<{ environments: string[] } | PreviewProblem, void>(
  'complianceEvidence/environments',
);

export interface PolicyDryRunParams {
  /** The open environment policy. */
  uri: string;
  environment: string;
}

/** What the open policy would say about the environment's latest snapshot. */
export const policyDryRunRequest = new RequestType<PolicyDryRunParams, PreviewList | PreviewProblem, void>(
  'complianceEvidence/policyDryRun',
);

/** The command of a lens with a list: its one argument is a PreviewList. The extension registers it. */
export const showPreviewListCommand = 'complianceEvidence.showPreviewList';
/** The command of the lens that picks an environment for a dry-run: its one argument is the policy's URI. */
export const pickEnvironmentCommand = 'complianceEvidence.policyDryRun';
