// The layers of the API server keep their order (ARCHITECTURE.md): each folder imports only the
// folders below it, http/ reaches the store only through services, and server/api never imports the
// commands that start it. Read from the import lines themselves, so a new file is checked the day
// it is written.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const api = 'server/api';

/** Top to bottom: a layer may import itself and any layer after it. */
export const LAYERS = [
  'start',
  'http',
  'services',
  'evaluation',
  'delivery',
  'views',
  'rules',
  'store',
  'base',
] as const;
type Layer = (typeof LAYERS)[number] | 'outside';

/**
 * What http/ may not take code from even though it lies below: it calls services and renders with
 * views (the types of what they answer it may name).
 */
const NOT_FROM_HTTP: readonly Layer[] = ['evaluation', 'delivery', 'rules', 'store'];

function layerOf(path: string): Layer {
  if (!path.startsWith(`${api}/`)) return path.startsWith('shared/') ? 'base' : 'outside';
  const first = path.slice(api.length + 1).split('/')[0];
  if (first === 'start.ts') return 'start';
  return (LAYERS as readonly string[]).includes(first) ? (first as Layer) : 'base';
}

function sourcesUnder(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

/** Every relative import of a file (static, type-only and re-exports alike), as repository paths. */
function importsOf(file: string): Array<{ target: string; typeOnly: boolean }> {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(/^\s*(import|export)(\s+type\b)?[^'"]*?\bfrom\s+['"](\.[^'"]+)['"]/gm)].map((match) => ({
    target: relative(root, resolve(root, dirname(file), match[3])),
    typeOnly: match[2] !== undefined,
  }));
}

/** "file -> import" for each import against the order. */
function importsAgainstTheOrder(): string[] {
  return sourcesUnder(api).flatMap((file) => {
    const from = layerOf(file);
    return importsOf(file)
      .filter(({ target, typeOnly }) => {
        const to = layerOf(target);
        if (to === 'outside') return !target.endsWith('package.json');
        if (from === 'http' && !typeOnly && NOT_FROM_HTTP.includes(to)) return true;
        return LAYERS.indexOf(to) < LAYERS.indexOf(from as (typeof LAYERS)[number]);
      })
      .map(({ target }) => `${file} -> ${target}`);
  });
}

/** "file:line" of each place http/ names the store or opens a transaction. */
function storeUsesInHttp(): string[] {
  return sourcesUnder(`${api}/http`).flatMap((file) =>
    readFileSync(join(root, file), 'utf8')
      .split('\n')
      .flatMap((line, index) =>
        !/^\s*(\/\/|\*)/.test(line) && /\bstore\s*[.,}]|\btransaction\s*\(/.test(line) ? [`${file}:${index + 1}`] : [],
      ),
  );
}

describe('the layers of the API server', () => {
  it('import only the layers below them (start > http > services > evaluation > delivery > views > rules > store > base)', () => {
    assert.deepEqual(importsAgainstTheOrder(), []);
  });

  it('leave the store and transactions to the services: http/ names neither', () => {
    assert.deepEqual(storeUsesInHttp(), []);
  });
});
