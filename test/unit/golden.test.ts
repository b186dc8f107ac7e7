import assert from 'node:assert/strict';
import { kindByFileName } from '../../shared/kinds.ts';
import { lineIndexOf } from '../../shared/text/positions.ts';
import { validateText } from '../../shared/validate.ts';
import { loadFixtures } from './golden.ts';

const fixtures = loadFixtures();

describe('golden fixtures', () => {
  it('has at least 80 fixtures', () => {
    assert.ok(fixtures.length >= 80, `only ${fixtures.length} fixtures`);
  });

  for (const fixture of fixtures) {
    it(fixture.name, () => {
      const kind = kindByFileName(fixture.path);
      assert.ok(kind, `${fixture.name}: the file name names no document kind`);
      const { findings } = validateText(kind, fixture.text);
      const lines = lineIndexOf(fixture.text);
      const got = findings.map((finding) => `${lines.positionAt(finding.range.start).line + 1} ${finding.code}`).sort();
      const detail = findings.map((f) => `  ${lines.positionAt(f.range.start).line + 1}: ${f.code} ${f.message}`).join('\n');
      assert.deepEqual(got, fixture.want, `findings of ${fixture.name}:\n${detail}`);
    });
  }
});
