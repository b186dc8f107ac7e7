// Which kind a document is, as the shared core decides it: modeline or policy `_schema` in the
// text first, then the file name against the configured globs.
import { kindOf, type DocumentKind } from '../../../shared/kinds.ts';
import { kindGlobsOf, type FileGlobs } from '../../../shared/settings.ts';

export function documentKindOf(uri: string, text: string, files: FileGlobs): DocumentKind | undefined {
  return kindOf(pathOfUri(uri), text, kindGlobsOf(files));
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
