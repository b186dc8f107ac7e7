// ARCHITECTURE.md stays true: every file and folder it names exists, and its table of the API
// server's layers lists the layers the layer test enforces, in that order.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LAYERS } from './layers.test.ts';

const root = join(import.meta.dirname, '..', '..');
const page = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8');

/** The repository paths the page names in code spans (`server/api/…`, `shared/…`, `test/…`, …). */
function pathsNamed(): string[] {
  return [...page.matchAll(/`([^`\s]+)`/g)]
    .map((match) => match[1])
    .filter(
      (text) => /^(client|server|shared|test|docs)\/[\w./*-]*$/.test(text) || /^[\w.-]+\.(md|mjs|json)$/.test(text),
    )
    .filter((text) => !text.includes('*'));
}

describe('ARCHITECTURE.md', () => {
  it('names only files and folders that exist', () => {
    const missing = pathsNamed().filter((path) => !existsSync(join(root, path)));
    assert.deepEqual(missing, []);
  });

  it('lists the layers of the API server in the order the layer test keeps', () => {
    const table = page.slice(page.indexOf('## The layers of the API server'), page.indexOf('## Two paths'));
    const rows = [...table.matchAll(/^\|\s*(\w+)\s*\|\s*`/gm)].map((match) => match[1]);
    assert.deepEqual(rows, LAYERS);
  });
});
