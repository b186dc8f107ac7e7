// The limits every face applies to what it reads (issue 23), written once: the server refuses a
// document over them (413 for size, 400 for shape), `cev validate` and the editor report the same
// finding. Each limit is far above any real template, policy or report, and low enough that the
// work a document can cause stays bounded (parsing, checking, placing findings, evaluating).
import type { Finding } from './findings.ts';
import type { DocumentKind } from './kinds.ts';

export const limits = {
  /**
   * Characters of a flow template or an environment policy. A template of 1,000 slots is about
   * 40 KB; parsing 256 KB of YAML takes tens of milliseconds.
   */
  documentChars: 256 * 1024,
  /** Bytes of a JSON document or request body: a K8S report of thousands of pods is several MB. */
  jsonBytes: 16 * 1024 * 1024,
  /**
   * Levels of collections in a YAML document. Templates and policies nest 5 or 6; the `yaml`
   * library composes recursively and overflows a thread's stack at about 1,200.
   */
  yamlDepth: 100,
  /** Levels of containers in a JSON value (a request body, a JSON document). */
  jsonDepth: 1000,
  /**
   * Aliases (`*name`) in a YAML document. Resolving each one scans the document's anchors and
   * aliases, so their count bounds the work; real templates use none or a few.
   */
  yamlAliases: 100,
  /** Nodes one anchor may expand to through aliases (the `yaml` library's `maxAliasCount`): stops alias bombs. */
  aliasExpansions: 1000,
  /** A flow template's slots: trail attestations, artifacts and artifact attestations together. */
  templateSlots: 1000,
  /** An environment policy's rules: attestation rules and requirement exceptions together. */
  policyRules: 500,
  /**
   * Rule checks one evaluation of policies may take (ruleChecksOf: running artifacts × rules ×
   * trails of each). A snapshot stores every rule's evaluation, about 240 bytes each, written and
   * read back on the event loop: at this limit some 5 MB and 0.15-0.5 s a report on a busy 2-core
   * machine (at 50,000, 12 MB and 0.3-3 s; at 200,000, 45 MB and 3.6 s). A large real environment
   * (1,000 artifacts under 20 rules) takes 20,000. A dry-run is held to the same limit, so it says
   * when a report would not be evaluated.
   */
  policyRuleChecks: 20_000,
  /**
   * The highest page number a list takes: the largest integer a number holds exactly. A page past
   * the end of a list is an empty page; `page=1e309` (read as Infinity) and numbers that cannot be
   * held exactly are refused.
   */
  maxPage: Number.MAX_SAFE_INTEGER,
  /** Findings (or field errors) listed in one answer; the rest are counted. */
  reportedFindings: 100,
} as const;

/** Codes of the findings these limits give; every one refuses the document. */
export const limitCodes = {
  tooLarge: 'limits/too-large',
  tooDeep: 'limits/too-deep',
  tooManyAliases: 'limits/too-many-aliases',
  tooManyEntries: 'limits/too-many-entries',
} as const;

export function isLimitFinding(finding: Pick<Finding, 'code'>): boolean {
  return finding.code.startsWith('limits/');
}

/** Whether a limit finding is about size (the server's 413) rather than shape (400). */
export function isSizeLimitFinding(finding: Pick<Finding, 'code'>): boolean {
  return finding.code === limitCodes.tooLarge || finding.code === limitCodes.tooManyEntries;
}

/** `1,234,567`: counts in messages are read by people. */
export function countText(count: number): string {
  return count.toLocaleString('en-US');
}

/** `256 KB`, `6.1 MB`. */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1).replace(/\.0$/, '')} MB`;
}

/** The most characters (or bytes, for JSON) a document of this kind may have. */
export function maxLengthOf(kind: DocumentKind): number {
  return kind === 'flow-template' || kind === 'env-policy' ? limits.documentChars : limits.jsonBytes;
}

const kindNames: Record<DocumentKind, string> = {
  'flow-template': 'flow template',
  'env-policy': 'environment policy',
  'scan-attestation': 'scan attestation',
  'k8s-report': 'K8S report',
};

/** Why a document of `length` characters (or bytes) is refused; undefined within the limit. */
export function tooLargeMessage(kind: DocumentKind, length: number): string | undefined {
  const limit = maxLengthOf(kind);
  if (length <= limit) return undefined;
  return `This ${kindNames[kind]} is ${sizeText(length)}, over the limit of ${sizeText(limit)}; split it or remove what it does not need`;
}

export function tooDeepMessage(limit: number): string {
  return `The document is nested too deeply (limit ${countText(limit)} levels)`;
}

export function tooManyAliasesMessage(count: number): string {
  return `The document uses ${countText(count)} aliases (*name), over the limit of ${countText(limits.yamlAliases)}: write the repeated entries out`;
}

/** Why `what` (a policy evaluation) is not run: `checks` is over limits.policyRuleChecks. */
export function tooManyRuleChecksMessage(what: string, checks: number): string {
  return `${what} would take ${countText(checks)} rule checks (running artifacts × rules × trails of each), over the limit of ${countText(limits.policyRuleChecks)}`;
}

/** `… and 29,900 more`, after the first `shown` of `total`. */
export function moreText(total: number, shown: number, what: string): string {
  return `… and ${countText(total - shown)} more ${what} (the first ${countText(shown)} are listed)`;
}
