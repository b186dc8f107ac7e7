// The core never throws on any text, and every finding lies inside the document it is about.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { documentKinds } from '../../shared/kinds.ts';
import type { DocumentKind } from '../../shared/kinds.ts';
import { checkScanAttestation } from '../../shared/payloads/scan.ts';
import { checkPolicy } from '../../shared/policies/check.ts';
import { checkK8sReport } from '../../shared/reports/check.ts';
import { checkBody } from '../../shared/schemas/checkBody.ts';
import { bodySchemaNames } from '../../shared/schemas/index.ts';
import { checkTemplate } from '../../shared/templates/check.ts';
import { parseTemplate } from '../../shared/templates/parse.ts';
import { validateText } from '../../shared/validate.ts';

function assertInside(kind: DocumentKind, text: string): void {
  const { findings } = validateText(kind, text);
  for (const finding of findings) {
    assert.ok(
      finding.range.start >= 0 && finding.range.start <= finding.range.end && finding.range.end <= text.length,
      `${kind}: ${finding.code} at ${finding.range.start}-${finding.range.end} outside 0-${text.length}`,
    );
  }
}

/** Text that looks like our documents, so the fuzzer reaches past the first syntax error. */
const documentLike = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        'version: 1',
        'trail:',
        '  attestations:',
        '    - name: a',
        '      type: junit',
        '_schema: x/policy/v1',
        'artifacts:',
        '  - &a [1, *a]',
        '  if: ${{ flow.name == "x" }}',
        '{"attestation_name": "a",',
        '"target_artifacts": ["x"]',
        '}',
        ']',
        '[',
        '{',
        '"',
        "'",
        ': ',
        '- ',
        '!tag ',
        '? ',
        '---',
        '#',
        '\t',
      ),
      fc.string({ maxLength: 12 }),
    ),
    { maxLength: 30 },
  )
  .map((lines) => lines.join('\n'));

describe('robustness on any text', () => {
  it('never throws and keeps every range inside the document (fast-check, seeded)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...documentKinds),
        fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), documentLike),
        (kind, text) => {
          assertInside(kind, text);
        },
      ),
      { seed: 20261122, numRuns: 400 },
    );
  });

  it('value checkers never throw on any JSON value, and every issue is an error with a code and message (fast-check, seeded)', () => {
    const checkers = [
      checkTemplate,
      checkPolicy,
      checkScanAttestation,
      checkK8sReport,
      ...bodySchemaNames.map((name) => (value: unknown) => checkBody(name, value)),
    ];
    // Values shaped like our documents reach deeper than arbitrary ones.
    const shaped = fc.record(
      {
        version: fc.jsonValue(),
        trail: fc.record(
          {
            attestations: fc.array(fc.record({ name: fc.jsonValue(), type: fc.jsonValue() }, { requiredKeys: [] })),
            artifacts: fc.jsonValue(),
          },
          { requiredKeys: [] },
        ),
        _schema: fc.jsonValue(),
        artifacts: fc.oneof(
          fc.jsonValue(),
          fc.record({
            attestations: fc.array(
              fc.dictionary(fc.constantFrom('name', 'type', 'if', 'for_control', 'x'), fc.jsonValue()),
            ),
          }),
        ),
        target_artifacts: fc.jsonValue(),
        artifact_fingerprint: fc.jsonValue(),
        git_commit_info: fc.jsonValue(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.constantFrom(...checkers), fc.oneof(fc.jsonValue(), shaped), (check, value) => {
        for (const issue of check(value)) {
          assert.ok(
            issue.code.includes('/') && issue.message.length > 0 && Array.isArray(issue.path),
            JSON.stringify(issue),
          );
        }
      }),
      { seed: 20261122, numRuns: 500 },
    );
  });

  it('survives deep nesting, alias bombs, binary junk and 50,000 lines', function () {
    // Parsing 50,000 lines takes seconds on a loaded machine; the point is that it ends without throwing.
    this.timeout(120_000);
    const texts = [
      '['.repeat(20_000),
      '{"a":'.repeat(20_000),
      `${'- '.repeat(5_000)}x`,
      Array.from({ length: 2_000 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n'),
      'a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
      '\u0000\u0001\uffff\ud800binary\u0007',
      'x: !!binary AAAA\ny: !custom {a: 1}\nz: !!int nope',
      `version: 1\ntrail:\n  attestations:\n${Array.from({ length: 25_000 }, (_, i) => `    - name: a${i}\n      type: junit`).join('\n')}\n`,
    ];
    // One YAML kind and one JSON kind: the kinds of a format share the parser.
    for (const text of texts)
      for (const kind of ['flow-template', 'scan-attestation'] as const) assertInside(kind, text);
  });

  it('parseTemplate gives the normalized model only for a valid template', () => {
    assert.deepEqual(parseTemplate('version: 1\n').template, {
      version: 1,
      trail: { attestations: [], artifacts: [] },
    });
    const invalid = parseTemplate('version: 2\n');
    assert.equal(invalid.template, undefined);
    assert.deepEqual(
      invalid.findings.map((finding) => finding.code),
      ['template/bad-version'],
    );
  });
});
