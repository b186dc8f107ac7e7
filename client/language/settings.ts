// The language server's settings, in the shape server/language/settings.ts reads:
// `{ complianceEvidence: { files: {...}, diagnostics: {...} } }`, sent at initialize and on change.
import { defaultKindGlobs } from '../../shared/kinds.ts';

export interface LanguageSettings {
  files: { flowTemplate: string[]; envPolicy: string[]; scanAttestation: string[]; k8sReport: string[] };
  diagnostics: { debounceMs: number; maxProblems: number };
}

/** The shared core's default globs; the manifest's setting defaults must equal them (a unit test checks). */
export const DEFAULT_FILES: LanguageSettings['files'] = {
  flowTemplate: [...defaultKindGlobs['flow-template']],
  envPolicy: [...defaultKindGlobs['env-policy']],
  scanAttestation: [...defaultKindGlobs['scan-attestation']],
  k8sReport: [...defaultKindGlobs['k8s-report']],
};

/** `get` reads one key of the `complianceEvidence` section (e.g. `files.flowTemplate`). */
export function languageSettings(get: (key: string) => unknown): { complianceEvidence: LanguageSettings } {
  const globs = (key: keyof LanguageSettings['files']) => {
    const value = get(`files.${key}`);
    return Array.isArray(value) && value.every((glob) => typeof glob === 'string') ? value : DEFAULT_FILES[key];
  };
  const count = (key: string, fallback: number) => {
    const value = get(key);
    return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;
  };
  return {
    complianceEvidence: {
      files: { flowTemplate: globs('flowTemplate'), envPolicy: globs('envPolicy'), scanAttestation: globs('scanAttestation'), k8sReport: globs('k8sReport') },
      diagnostics: { debounceMs: count('diagnostics.debounceMs', 100), maxProblems: count('diagnostics.maxProblems', 100) },
    },
  };
}
