import assert from 'node:assert/strict';
import { basename } from 'node:path';
import { kindOf } from '../../shared/kinds.ts';
import { lineIndexOf } from '../../shared/text/positions.ts';
import { validateText } from '../../shared/validate.ts';
import { loadFixtures } from './golden.ts';

const fixtures = loadFixtures();

describe('golden fixtures', () => {
  it('has at least 80 fixtures', () => {
    assert.ok(fixtures.length >= 80, `only ${fixtures.length} fixtures`);
  });

  it('exercises every rule, in an invalid fixture, and every kind in a valid one', () => {
    const ruleCodes = [
      'yaml/syntax',
      'json/syntax',
      'template/missing-version',
      'template/bad-version',
      'template/unknown-attestation-type',
      'template/duplicate-name',
      'template/untargetable-artifact-name',
      'policy/unmatchable-name',
      'policy/unmatchable-control',
      'policy/wrong-type',
      'template/empty-name',
      'template/bad-name',
      'template/unknown-key',
      'template/missing-field',
      'template/wrong-type',
      'policy/missing-schema',
      'policy/bad-schema-url',
      'policy/any-name-any-type',
      'policy/for-control-without-decision',
      'policy/unknown-attestation-type',
      'policy/bad-expression',
      'policy/unsupported-pattern',
      'policy/unknown-key',
      'scan/target-artifacts-without-commit',
      'scan/too-many-target-artifacts',
      'scan/missing-field',
      'scan/unknown-key',
      'scan/bad-pattern',
      'scan/bad-key',
      'scan/wrong-type',
      'scan/bad-value',
      'report/missing-field',
      'report/bad-pattern',
      'report/wrong-type',
    ];
    const wanted = new Set(fixtures.flatMap((fixture) => fixture.want.map((want) => want.split(' ')[1])));
    assert.deepEqual(
      ruleCodes.filter((code) => !wanted.has(code)),
      [],
    );
    for (const kind of ['flow-template', 'env-policy', 'scan-attestation', 'k8s-report']) {
      assert.ok(
        fixtures.some((fixture) => fixture.name.startsWith(`${kind}/valid`) && fixture.want.length === 0),
        kind,
      );
    }
  });

  for (const fixture of fixtures) {
    it(fixture.name, () => {
      const kind = kindOf(fixture.path, fixture.text);
      assert.ok(kind, `${fixture.name}: neither the text nor the file name names a document kind`);
      const { findings } = validateText(kind, fixture.text);
      const lines = lineIndexOf(fixture.text);
      const got = findings.map((finding) => `${lines.positionAt(finding.range.start).line + 1} ${finding.code}`).sort();
      const detail = findings
        .map((f) => `  ${lines.positionAt(f.range.start).line + 1}: ${f.code} ${f.message}`)
        .join('\n');
      assert.deepEqual(got, fixture.want, `findings of ${fixture.name}:\n${detail}`);
      // Both directions: a `valid*` fixture is accepted (warnings at most), any other is refused.
      const errors = findings.filter((finding) => finding.severity === 'error');
      if (/^valid[-.]/.test(basename(fixture.path)))
        assert.deepEqual(
          errors.map((f) => f.code),
          [],
          `${fixture.name} is accepted`,
        );
      else assert.ok(errors.length > 0, `${fixture.name} is refused`);
    });
  }
});
