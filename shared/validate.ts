// One entry point for every face: a document's text and kind in, its value and positioned
// findings (syntax first-class) out, sorted by position.
import type { Document } from 'yaml';
import type { Finding, Issue } from './findings.ts';
import type { DocumentKind } from './kinds.ts';
import { limitCodes, tooLargeMessage } from './limits.ts';
import { checkScanAttestation } from './payloads/scan.ts';
import { checkPolicy } from './policies/check.ts';
import { checkK8sReport } from './reports/check.ts';
import { checkTemplate } from './templates/check.ts';
import { parseText, placeIssues } from './text/parse.ts';
import type { TextFormat } from './text/parse.ts';

export type { DocumentKind } from './kinds.ts';

interface KindRules {
  format: TextFormat;
  check(value: unknown): Issue[];
}

const rulesByKind: Record<DocumentKind, KindRules> = {
  'flow-template': { format: 'yaml', check: checkTemplate },
  'env-policy': { format: 'yaml', check: checkPolicy },
  'scan-attestation': { format: 'json', check: checkScanAttestation },
  'k8s-report': { format: 'json', check: checkK8sReport },
};

export function formatOf(kind: DocumentKind): TextFormat {
  return rulesByKind[kind].format;
}

/** `yamlTree`: the YAML tree of `text` when the caller already holds it; ignored for JSON kinds. */
export function validateText(
  kind: DocumentKind,
  text: string,
  yamlTree?: Document.Parsed,
): { value: unknown; findings: Finding[] } {
  const rules = rulesByKind[kind];
  const tooLarge = tooLargeMessage(kind, text.length);
  if (tooLarge !== undefined) return { value: undefined, findings: [tooLargeFinding(tooLarge, text)] };
  const parsed = parseText(rules.format, text, yamlTree);
  if (parsed.broken) return { value: parsed.value, findings: placeIssues(parsed, []) };
  return { value: parsed.value, findings: placeIssues(parsed, rules.check(parsed.value)) };
}

/** A document over the size limit is not read at all: one finding on its first line says why. */
function tooLargeFinding(message: string, text: string): Finding {
  const newline = text.indexOf('\n');
  const end = Math.min(newline === -1 ? text.length : newline, 200);
  return { code: limitCodes.tooLarge, severity: 'error', message, path: [], target: 'value', range: { start: 0, end } };
}
