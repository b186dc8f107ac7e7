// Which kind a document is, as the shared core decides it: modeline or policy `_schema` in the
// text first, then the file name against the configured globs.
import { kindOf, type DocumentKind, type KindGlobs } from '../../../shared/kinds.ts';
import type { FileGlobs } from '../../../shared/settings.ts';

export function documentKindOf(uri: string, text: string, files: FileGlobs): DocumentKind | undefined {
  const globs: KindGlobs = {
    'flow-template': files.flowTemplate,
    'env-policy': files.envPolicy,
    'scan-attestation': files.scanAttestation,
    'k8s-report': files.k8sReport,
  };
  return kindOf(pathOfUri(uri), text, globs);
}

// Globs match paths; a URI's path is percent-encoded (`my%20flow-template.yaml`).
function pathOfUri(uri: string): string {
  const path = uri.replace(/^[a-z][\w+.-]*:\/\/[^/]*/i, '').replace(/[?#].*$/, '');
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
