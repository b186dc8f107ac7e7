// The language server's settings as VS Code holds them, read through the shared reader
// (shared/settings.ts) that the language server reads them with, so both apply the same defaults
// and limits.
import { defaultFileGlobs, settingsFrom, type FileGlobs, type Settings } from '../../shared/settings.ts';

const fileKeys = Object.keys(defaultFileGlobs) as Array<keyof FileGlobs>;

/** `get` reads one key of the `complianceEvidence` section (e.g. `files.flowTemplate`). */
export function languageSettings(get: (key: string) => unknown): { complianceEvidence: Settings } {
  const raw = {
    files: Object.fromEntries(fileKeys.map((key) => [key, get(`files.${key}`)])),
    diagnostics: { debounceMs: get('diagnostics.debounceMs'), maxProblems: get('diagnostics.maxProblems') },
  };
  return { complianceEvidence: settingsFrom(raw, defaultFileGlobs) };
}
