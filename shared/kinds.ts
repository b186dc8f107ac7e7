// Which kind of document a file is: by a modeline or a policy's `_schema` in its text first,
// then by its name (configurable globs), as yaml-language-server associates schemas.

export type DocumentKind = 'flow-template' | 'env-policy' | 'scan-attestation' | 'k8s-report';

export const documentKinds: readonly DocumentKind[] = ['flow-template', 'env-policy', 'scan-attestation', 'k8s-report'];

export type KindGlobs = Record<DocumentKind, readonly string[]>;

export const defaultKindGlobs: KindGlobs = {
  'flow-template': ['**/*flow-template*.{yml,yaml}'],
  'env-policy': ['**/*env-policy*.{yml,yaml}'],
  'scan-attestation': ['**/*scan-attestation*.json'],
  'k8s-report': ['**/*k8s-report*.json'],
};

export function isDocumentKind(kind: string): kind is DocumentKind {
  return (documentKinds as readonly string[]).includes(kind);
}

/** The kind a file's path matches, trying kinds in order. Paths may use `/` or `\`. */
export function kindByFileName(path: string, globs: KindGlobs = defaultKindGlobs): DocumentKind | undefined {
  const normalized = path.replace(/\\/g, '/');
  for (const kind of documentKinds) {
    if (globs[kind].some((glob) => globMatches(glob, normalized))) return kind;
  }
  return undefined;
}

const modeline = /^#\s*cev:\s*(flow-template|env-policy)\s*$/;
const policySchema = /^_schema\s*:\s*['"]?([^'"\s#]+)/m;
const policySchemaPath = /\/policy(?:\/environment)?\/v1\/?$/;

/** The kind a document declares: a first-line `# cev: <kind>` modeline, or a policy `_schema` URL. */
export function kindByText(text: string): DocumentKind | undefined {
  const newline = text.indexOf('\n');
  const firstLine = (newline === -1 ? text : text.slice(0, newline)).trimEnd();
  const declared = modeline.exec(firstLine);
  if (declared) return declared[1] as DocumentKind;
  const schema = policySchema.exec(text.slice(0, 4096));
  if (schema && policySchemaPath.test(schema[1]!.replace(/[?#].*$/, ''))) return 'env-policy';
  return undefined;
}

export function kindOf(path: string, text: string, globs: KindGlobs = defaultKindGlobs): DocumentKind | undefined {
  return kindByText(text) ?? kindByFileName(path, globs);
}

const globCache = new Map<string, RegExp>();

/** Glob match with `**`, `*`, `?` and `{a,b}`; a glob without `/` matches the file's base name. */
export function globMatches(glob: string, path: string): boolean {
  let pattern = globCache.get(glob);
  if (pattern === undefined) {
    pattern = globToRegExp(glob);
    globCache.set(glob, pattern);
  }
  const subject = glob.includes('/') ? path : path.slice(path.lastIndexOf('/') + 1);
  return pattern.test(subject);
}

function globToRegExp(glob: string): RegExp {
  let out = '';
  let inBraces = false;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      out += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '{') {
      inBraces = true;
      out += '(?:';
    } else if (c === '}' && inBraces) {
      inBraces = false;
      out += ')';
    } else if (c === ',' && inBraces) out += '|';
    else out += c.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^(?:.*/)?${out}$`);
}
