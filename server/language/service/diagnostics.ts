// Diagnostics: the shared core's findings, placed in the editor's coordinates, capped per document.
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Finding, Severity } from '../../../shared/findings.ts';
import { diagnosticSource } from '../../../shared/protocol.ts';
import { formatOf, validateText, type DocumentKind } from '../../../shared/validate.ts';
import { treeOf } from './parsed.ts';

const moreProblemsCode = 'editor/more-problems';

const severities: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/** What quick fixes get back in `diagnostic.data`: where the finding is and its facts. */
export interface FindingData {
  path: (string | number)[];
  target: 'key' | 'value';
  facts?: Record<string, unknown>;
}

export function diagnosticsOf(kind: DocumentKind, document: TextDocument, maxProblems: number): Diagnostic[] {
  const tree = formatOf(kind) === 'yaml' ? treeOf(document) : undefined;
  return diagnosticsOfFindings(validateText(kind, document.getText(), tree).findings, document, maxProblems);
}

function diagnosticsOfFindings(
  findings: readonly Finding[],
  document: TextDocument,
  maxProblems: number,
): Diagnostic[] {
  const shown = findings.slice(0, maxProblems).map((finding) => diagnosticOf(finding, document));
  const hidden = findings.length - shown.length;
  if (hidden > 0) {
    const first = findings[shown.length];
    shown.push({
      range: rangeOf(first, document),
      severity: DiagnosticSeverity.Information,
      code: moreProblemsCode,
      source: diagnosticSource,
      message: `${hidden} more problem${hidden === 1 ? '' : 's'} not shown (the first ${maxProblems} are; raise complianceEvidence.diagnostics.maxProblems to see more)`,
    });
  }
  return shown;
}

function diagnosticOf(finding: Finding, document: TextDocument): Diagnostic {
  const data: FindingData = { path: finding.path, target: finding.target, facts: finding.data };
  return {
    range: rangeOf(finding, document),
    severity: severities[finding.severity],
    code: finding.code,
    source: diagnosticSource,
    message: finding.message,
    data,
  };
}

function rangeOf(finding: Finding, document: TextDocument) {
  return { start: document.positionAt(finding.range.start), end: document.positionAt(finding.range.end) };
}
