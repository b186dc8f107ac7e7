// The editor settings under the `complianceEvidence` section, read once for both sides: the
// extension reads them from VS Code in this shape and sends them (`initializationOptions`,
// `workspace/didChangeConfiguration`); the language server reads what arrives the same way.
import { defaultKindGlobs, type KindGlobs } from './kinds.ts';
import { isObject } from './text/values.ts';

export interface FileGlobs {
  flowTemplate: string[];
  envPolicy: string[];
  scanAttestation: string[];
  k8sReport: string[];
}

export interface DiagnosticsSettings {
  /** The longest a check waits after an edit: it waits about as long as checking that document takes, up to this; 0 checks at once. */
  debounceMs: number;
  /** Most diagnostics published per document; one more says how many were left out. */
  maxProblems: number;
}

export interface Settings {
  files: FileGlobs;
  diagnostics: DiagnosticsSettings;
}

export const settingsSection = 'complianceEvidence';

/** The shared core's default globs in the settings' shape; the manifest's defaults must equal them (a unit test checks). */
export const defaultFileGlobs: FileGlobs = {
  flowTemplate: [...defaultKindGlobs['flow-template']],
  envPolicy: [...defaultKindGlobs['env-policy']],
  scanAttestation: [...defaultKindGlobs['scan-attestation']],
  k8sReport: [...defaultKindGlobs['k8s-report']],
};

/** The settings' globs keyed by the document kind they name, as the shared core's kindOf takes them. */
export function kindGlobsOf(files: FileGlobs): KindGlobs {
  return {
    'flow-template': files.flowTemplate,
    'env-policy': files.envPolicy,
    'scan-attestation': files.scanAttestation,
    'k8s-report': files.k8sReport,
  };
}

const defaultDiagnostics: DiagnosticsSettings = { debounceMs: 100, maxProblems: 100 };

/**
 * Settings from whatever the client sent: each field that is missing or of the wrong type falls
 * back to its default, so a half-filled or malformed configuration never disables the server.
 * `defaultGlobs` comes from the shared document kinds, so editor and CLI agree on file names.
 */
export function settingsFrom(raw: unknown, defaultGlobs: FileGlobs): Settings {
  const section = objectAt(raw, settingsSection) ?? objectOf(raw) ?? {};
  const files = objectOf(section.files) ?? {};
  const diagnostics = objectOf(section.diagnostics) ?? {};
  return {
    files: {
      flowTemplate: globsOr(files.flowTemplate, defaultGlobs.flowTemplate),
      envPolicy: globsOr(files.envPolicy, defaultGlobs.envPolicy),
      scanAttestation: globsOr(files.scanAttestation, defaultGlobs.scanAttestation),
      k8sReport: globsOr(files.k8sReport, defaultGlobs.k8sReport),
    },
    diagnostics: {
      debounceMs: countOr(diagnostics.debounceMs, defaultDiagnostics.debounceMs, 0),
      maxProblems: countOr(diagnostics.maxProblems, defaultDiagnostics.maxProblems, 1),
    },
  };
}

function objectOf(value: unknown): Record<string, unknown> | undefined {
  return isObject(value) ? value : undefined;
}

// The client may send the section itself or an object that holds it.
function objectAt(value: unknown, key: string): Record<string, unknown> | undefined {
  return objectOf(objectOf(value)?.[key]);
}

function globsOr(value: unknown, fallback: string[]): string[] {
  return Array.isArray(value) && value.every((glob) => typeof glob === 'string') ? [...value] : [...fallback];
}

function countOr(value: unknown, fallback: number, min: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= min ? Math.floor(value) : fallback;
}
