// Which of our document kinds an editor holds, by the same configurable globs the language server
// uses; the status item shows it and the commands check it.
import * as vscode from 'vscode';
import { languageSettings, type LanguageSettings } from './settings.ts';

export type DocumentKind = 'flow-template' | 'env-policy' | 'scan-attestation' | 'k8s-report';

const kindBySetting: [keyof LanguageSettings['files'], DocumentKind][] = [
  ['flowTemplate', 'flow-template'],
  ['envPolicy', 'env-policy'],
  ['scanAttestation', 'scan-attestation'],
  ['k8sReport', 'k8s-report'],
];

export const kindLabels: Record<DocumentKind, string> = {
  'flow-template': 'Flow template',
  'env-policy': 'Environment policy',
  'scan-attestation': 'Scan attestation',
  'k8s-report': 'K8S report',
};

export function currentLanguageSettings(): { complianceEvidence: LanguageSettings } {
  const config = vscode.workspace.getConfiguration('complianceEvidence');
  return languageSettings((key) => config.get(key));
}

export function documentKindOf(document: vscode.TextDocument): DocumentKind | undefined {
  const { files } = currentLanguageSettings().complianceEvidence;
  for (const [setting, kind] of kindBySetting) {
    if (files[setting].some((pattern) => vscode.languages.match({ pattern }, document) > 0)) return kind;
  }
  return kindByText(document);
}

/** A first-line modeline (`# cev: flow-template`) or a policy's top-level `_schema`, as the server reads them. */
function kindByText(document: vscode.TextDocument): DocumentKind | undefined {
  if (document.languageId !== 'yaml') return undefined;
  const first = document.lineCount > 0 ? document.lineAt(0).text : '';
  const modeline = /^#\s*cev:\s*(flow-template|env-policy)\s*$/.exec(first);
  if (modeline) return modeline[1] as DocumentKind;
  return /^_schema:\s*\S+/m.test(document.getText()) ? 'env-policy' : undefined;
}
