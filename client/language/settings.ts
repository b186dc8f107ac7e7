// The language server's settings, in the shape server/language/settings.ts reads:
// `{ complianceEvidence: { files: {...}, diagnostics: {...} } }`, sent at initialize and on change.

export interface LanguageSettings {
  files: { flowTemplate: string[]; envPolicy: string[]; scanAttestation: string[]; k8sReport: string[] };
  diagnostics: { debounceMs: number; maxProblems: number };
}

/** The default globs, the same as the manifest's setting defaults. */
export const DEFAULT_FILES: LanguageSettings['files'] = {
  flowTemplate: ['**/*flow-template*.{yml,yaml}'],
  envPolicy: ['**/*env-policy*.{yml,yaml}'],
  scanAttestation: ['**/*scan-attestation*.json'],
  k8sReport: ['**/*k8s-report*.json'],
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
