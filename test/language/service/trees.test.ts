// The kept syntax tree must always be the tree a full parse gives: same values, same node ranges,
// same findings. Checked on seeded random edits of real documents, most of them inside one list
// item (the patched path), some anywhere (the fallback).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { isMap, isPair, isSeq, type Node } from 'yaml';
import { createTreeCache, parseTree, type Tree } from '../../../server/language/service/trees.ts';
import { validateText, type DocumentKind } from '../../../shared/validate.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8');

/** Every node's range, in document order, with the path that leads to it. */
function rangesOf(tree: Tree): string[] {
  const out: string[] = [];
  const walk = (node: unknown, path: string): void => {
    if (node === null || node === undefined) return;
    if (isPair(node)) {
      walk(node.key, `${path}/key`);
      walk(node.value, `${path}/value`);
      return;
    }
    const range = (node as Node).range;
    out.push(`${path} ${range ? range.join(',') : '-'}`);
    if (isMap(node) || isSeq(node)) (node.items as unknown[]).forEach((item, index) => walk(item, `${path}/${index}`));
  };
  walk(tree.contents, '');
  out.push(`doc ${tree.range.join(',')} errors ${tree.errors.length} warnings ${tree.warnings.length}`);
  return out;
}

function valueOf(tree: Tree): unknown {
  try {
    return tree.toJS({ maxAliasCount: 1000 });
  } catch (error) {
    return `throws ${(error as Error).message}`;
  }
}

// Edits that a person makes while typing: mostly inside a line, sometimes a new or removed line.
const editArbitrary = fc.record({
  at: fc.nat(),
  removed: fc.nat({ max: 6 }),
  inserted: fc.oneof(
    {
      weight: 5,
      arbitrary: fc.string({ unit: fc.constantFrom('a', 'b', '-', '_', ':', ' ', '1', 'x'), maxLength: 5 }),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '\n      type: junit',
        '\n    - name: extra\n      type: snyk',
        '\n',
        '  ',
        '#',
        '"',
        '*',
        '&a ',
        '[',
        '{',
      ),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 4 }) },
  ),
});

function check(name: string, kind: DocumentKind, seed: number): void {
  const original = fixture(name);
  fc.assert(
    fc.property(fc.array(editArbitrary, { minLength: 1, maxLength: 25 }), (edits) => {
      const cache = createTreeCache();
      const key = {};
      let text = original;
      cache.treeFor(key, text);
      for (const edit of edits) {
        const at = edit.at % (text.length + 1);
        text = text.slice(0, at) + edit.inserted + text.slice(Math.min(text.length, at + edit.removed));
        const kept = cache.treeFor(key, text);
        const fresh = parseTree(text);
        assert.deepEqual(rangesOf(kept), rangesOf(fresh));
        assert.deepEqual(valueOf(kept), valueOf(fresh));
        assert.deepEqual(validateText(kind, text, kept).findings, validateText(kind, text).findings);
      }
    }),
    { seed, numRuns: 25 },
  );
}

describe('language service: kept syntax trees', () => {
  it('match a full parse after random edits of a flow template', () =>
    check('demo.flow-template.yaml', 'flow-template', 4242));
  it('match a full parse after random edits of an environment policy', () =>
    check('demo.env-policy.yaml', 'env-policy', 1717));

  it('re-parse the whole text when a directive changes how items read', () => {
    const cache = createTreeCache();
    const key = {};
    const text = '%YAML 1.1\n---\nversion: 1\ntrail:\n  attestations:\n    - name: a\n      type: junit\n';
    cache.treeFor(key, text);
    const edited = text.replace('type: junit', 'type: yes');
    assert.deepEqual(cache.treeFor(key, edited).toJS(), parseTree(edited).toJS());
  });

  it('re-parse only the edited list item', () => {
    const cache = createTreeCache();
    const key = {};
    const text = fixture('demo.flow-template.yaml');
    const first = cache.treeFor(key, text);
    const untouched = first.getIn(['trail', 'artifacts', 1], true);
    const edited = text.replace('type: snyk', 'type: snykk');
    const second = cache.treeFor(key, edited);
    assert.equal(second, first, 'the same tree object, patched');
    assert.equal(second.getIn(['trail', 'artifacts', 1], true), untouched, 'the next artifact was not re-parsed');
    assert.deepEqual(rangesOf(second), rangesOf(parseTree(edited)));
  });
});
