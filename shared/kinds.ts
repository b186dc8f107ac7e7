// Which kind of document a file is: by what its text declares first (a `# cev:` modeline, a
// `$schema` in the header comments or at the top level, a policy's `_schema`), then by its name
// (configurable globs), in the order yaml-language-server associates schemas.

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
/**
 * yaml-language-server's schema modelines, as the service's docs head a template with them:
 * `# yaml-language-server: $schema=<url>` (or `$schema: <url>`) and the `# $schema: <url>` form.
 */
const schemaModeline = /^#\s+(?:yaml-language-server\s*:.*?|)\$schema(?:=|:[^\S\r\n]*)(\S+)/;
/** A top-level `$schema:` (YAML) or `"$schema":` (JSON) key. */
const schemaKey = /^(?:['"]?\$schema['"]?\s*:|\s*"\$schema"\s*:)\s*['"]?([^'"\s#,]+)/m;
/** A policy's own `_schema:` key: it declares a policy only when its URL is a policy's. */
const policySchemaKey = /^_schema\s*:\s*['"]?([^'"\s#]+)/m;

/** A schema URL's kind by its path: the schemas the server serves (reference §2.19) and the policy `_schema` forms (§4.1). */
export function kindBySchemaUrl(url: string): DocumentKind | undefined {
  const path = url
    .replace(/[?#].*$/, '')
    .replace(/\/+$/, '')
    .replace(/\.json$/, '')
    .toLowerCase();
  if (/(?:^|[/_.-])flow[-_]?template(?:s)?(?:[/_.-]|$)/.test(path)) return 'flow-template';
  if (
    /\/policy(?:\/environment)?\/v1$/.test(path) ||
    /(?:^|[/_.-])(?:env|environment)[-_]?polic(?:y|ies)(?:[/_.-]|$)/.test(path)
  )
    return 'env-policy';
  return undefined;
}

/**
 * The kind a document declares: a first-line `# cev: <kind>` modeline, a schema modeline among
 * the header comments, or a `$schema` / policy `_schema` URL at the top level.
 */
export function kindByText(text: string): DocumentKind | undefined {
  const head = text.slice(0, 4096);
  const lines = head.split(/\r?\n/);
  const declared = modeline.exec(lines[0].trimEnd());
  if (declared) return declared[1] as DocumentKind;
  for (const line of lines) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed === '---') continue;
    if (!trimmed.startsWith('#')) break;
    const url = schemaModeline.exec(trimmed)?.[1];
    const kind = url === undefined ? undefined : kindBySchemaUrl(url);
    if (kind !== undefined) return kind;
  }
  const url = schemaKey.exec(head)?.[1];
  const kind = url === undefined ? undefined : kindBySchemaUrl(url);
  if (kind !== undefined) return kind;
  const policyUrl = policySchemaKey.exec(head)?.[1];
  return policyUrl !== undefined && kindBySchemaUrl(policyUrl) === 'env-policy' ? 'env-policy' : undefined;
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
    const c = glob[i];
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
