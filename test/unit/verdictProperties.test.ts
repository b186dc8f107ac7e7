// Properties of every verdict (issue 15), on documents drawn from the shared schemas:
// 1. no verdict of ours refuses a document the schema accepts, unless the refusing rule is cited
//    with its source in shared/verdicts.ts (refusalSources);
// 2. every finding's range lies on the node its path names: the value (or its key, when the value
//    is empty), the key for a key finding, the nearest existing parent for a missing field, and
//    the alias when the path runs through one. Checked on valid draws and on mutated ones.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isAlias, isMap, isNode, isScalar, isSeq, parseDocument, stringify, type Node } from 'yaml';
import type { Finding } from '../../shared/findings.ts';
import type { DocumentKind } from '../../shared/kinds.ts';
import { checkAttestation } from '../../shared/payloads/index.ts';
import { checkReport, reportTypes } from '../../shared/reports/check.ts';
import { schemas, validatorFor, type SchemaName } from '../../shared/schemas/index.ts';
import { formatOf, validateText } from '../../shared/validate.ts';
import { isLimitFinding } from '../../shared/limits.ts';
import { refusalSources } from '../../shared/verdicts.ts';
import { arbitraryOf } from './schemaArbitrary.ts';

const runs = { numRuns: 150, seed: 15 };

const textOf = (kind: DocumentKind, value: unknown) =>
  formatOf(kind) === 'yaml' ? stringify(value) : `${JSON.stringify(value, null, 2)}\n`;

/** Schema-valid draws: the schema's own arbitrary, kept when ajv agrees the schema accepts it. */
const validDraws = (name: SchemaName) =>
  arbitraryOf(schemas[name]).filter((value) => validatorFor(name)(value) === true);

function uncitedRefusals(findings: readonly Pick<Finding, 'severity' | 'code'>[]): string[] {
  return findings
    .filter((finding) => finding.severity === 'error' && !(finding.code in refusalSources) && !isLimitFinding(finding))
    .map((finding) => finding.code);
}

/** Offsets the finding may cover: the named node, from its key when it has one. */
function allowedSpan(text: string, finding: Finding): [number, number] {
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: false });
  let node: unknown = doc.contents;
  let key: Node | undefined;
  for (const segment of finding.path) {
    if (isAlias(node)) return node.range ? [node.range[0], node.range[1]] : [0, text.length];
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(segment));
      if (pair === undefined) break;
      key = isNode(pair.key) ? pair.key : undefined;
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number' && segment < node.items.length) {
      key = undefined;
      node = node.items[segment];
    } else break;
  }
  const range = isNode(node) ? node.range : undefined;
  if (finding.target === 'key' && key?.range) return [key.range[0], key.range[1]];
  const start = key?.range ? key.range[0] : (range?.[0] ?? 0);
  const end = range ? Math.max(range[1], key?.range?.[1] ?? 0) : (key?.range?.[1] ?? text.length);
  return [start, end];
}

function assertPlaced(text: string, findings: readonly Finding[]): void {
  for (const finding of findings) {
    if (finding.code.endsWith('/syntax')) continue;
    const [start, end] = allowedSpan(text, finding);
    assert.ok(
      finding.range.start >= start && finding.range.end <= end,
      `${finding.code} at ${JSON.stringify(finding.path)} covers ${finding.range.start}-${finding.range.end}, its node ${start}-${end}:\n${text}`,
    );
  }
}

/** Every path to a node of a value. */
function pathsOf(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  const out = [path];
  if (Array.isArray(value)) value.forEach((item, index) => out.push(...pathsOf(item, [...path, index])));
  else if (value !== null && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) out.push(...pathsOf(item, [...path, key]));
  return out;
}

const replacements: unknown[] = [
  null,
  42,
  'not valid here',
  '',
  [],
  {},
  true,
  { unknown_key: 1 },
  ['x'],
  '*',
  'custom:',
];

/** A JSON object or list, whose entries a path segment names by key or position. */
type Container = Record<string | number, unknown>;
const isContainer = (value: unknown): value is Container => value !== null && typeof value === 'object';

/** A copy of `value` with one node replaced, an unknown key added, or a list entry repeated by reference (an alias in YAML). */
const mutated = (value: unknown, pick: number, replacement: number, how: number): unknown => {
  const copy = structuredClone(value);
  const paths = pathsOf(copy);
  const path = paths[pick % paths.length];
  if (path.length === 0) return how === 0 ? replacements[replacement % replacements.length] : copy;
  const parent = path.slice(0, -1).reduce<unknown>((node, segment) => (isContainer(node) ? node[segment] : node), copy);
  if (!isContainer(parent)) throw new Error(`${JSON.stringify(path)} does not end in an object or a list`);
  const last = path[path.length - 1];
  const node = parent[last];
  if (how === 1 && Array.isArray(parent)) parent.push(node);
  else if (how === 2 && isContainer(node) && !Array.isArray(node)) node.surplus = 'x';
  else parent[last] = replacements[replacement % replacements.length];
  return copy;
};
const mutations = fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 0, max: 2 }));

const documents: { kind: DocumentKind; schema: SchemaName }[] = [
  { kind: 'flow-template', schema: 'flow-template' },
  { kind: 'env-policy', schema: 'env-policy' },
  { kind: 'scan-attestation', schema: 'scan-attestation' },
  { kind: 'k8s-report', schema: 'k8s-report' },
];

describe('verdict properties on documents drawn from the schemas', function () {
  this.timeout(120_000);

  it('every refusal beyond a schema is cited with a spec or reference section', () => {
    for (const [code, source] of Object.entries(refusalSources))
      assert.match(source, /(spec|reference) (§\d|endpoint \d)/, code);
  });

  for (const { kind, schema } of documents) {
    it(`${kind}: a document the schema accepts is refused only by a cited rule`, () => {
      fc.assert(
        fc.property(validDraws(schema), (value) => {
          const text = textOf(kind, value);
          const { findings } = validateText(kind, text);
          assert.deepEqual(uncitedRefusals(findings), [], text);
          assertPlaced(text, findings);
        }),
        runs,
      );
    });

    it(`${kind}: every finding of a mutated document lies on the node it names`, () => {
      fc.assert(
        fc.property(validDraws(schema), mutations, (value, [pick, replacement, how]) => {
          const text = textOf(kind, mutated(value, pick, replacement, how));
          assertPlaced(text, validateText(kind, text).findings);
        }),
        runs,
      );
    });
  }

  for (const type of reportTypes) {
    it(`${type} report: a report the schema accepts is accepted`, () => {
      const name = `${type.toLowerCase()}-report` as SchemaName;
      assert.ok(name in schemas, name);
      fc.assert(
        fc.property(validDraws(name), (value) => assert.deepEqual(uncitedRefusals(checkReport(type, value)), [])),
        runs,
      );
    });
  }

  it('a generic attestation the schema accepts is refused only by a cited rule', () => {
    fc.assert(
      fc.property(validDraws('attestation'), (value) =>
        assert.deepEqual(uncitedRefusals(checkAttestation('generic', value)), []),
      ),
      runs,
    );
  });
});
