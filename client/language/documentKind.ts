// Which of our document kinds an editor holds, decided by the shared core exactly as the language
// server and `cev validate` decide it (what the text declares first: a `# cev:` modeline, a
// `$schema` modeline or key, a policy's `_schema`; then the configurable globs).
import * as vscode from 'vscode';
import { kindOf, type DocumentKind } from '../../shared/kinds.ts';
import { kindGlobsOf, type Settings } from '../../shared/settings.ts';
import { languageSettings } from './settings.ts';

export type { DocumentKind };

export const kindLabels: Record<DocumentKind, string> = {
  'flow-template': 'Flow template',
  'env-policy': 'Environment policy',
  'scan-attestation': 'Scan attestation',
  'k8s-report': 'K8S report',
};

export function currentLanguageSettings(): { complianceEvidence: Settings } {
  const config = vscode.workspace.getConfiguration('complianceEvidence');
  return languageSettings((key) => config.get(key));
}

export function documentKindOf(document: vscode.TextDocument): DocumentKind | undefined {
  const { files } = currentLanguageSettings().complianceEvidence;
  return kindOf(document.uri.path, document.getText(), kindGlobsOf(files));
}
