// Small files named for what they hold (the team's standard, issue 24 item 8): no file of the
// product (the extension, the servers, the shared core) is over 450 lines. A file that grows past
// it is split by what its parts hold, not by line count.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const PRODUCT = ['client', 'server', 'shared'];
const MAX_LINES = 450;

/** Lines as `wc -l` counts them: a last line without its newline counts too. */
function linesOf(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** "path: N lines" for each product file over the limit. */
function filesOverTheLimit(): string[] {
  return PRODUCT.flatMap((folder) =>
    readdirSync(join(root, folder), { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name))
      .map((path) => ({ path: relative(root, path), lines: linesOf(readFileSync(path, 'utf8')) }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ path, lines }) => `${path}: ${lines} lines`),
  );
}

describe('the product files', () => {
  it(`are at most ${MAX_LINES} lines each`, () => {
    assert.deepEqual(filesOverTheLimit(), []);
  });
});
