// The list of finding codes (shared/findingCodes.ts) says what every code of the shared core
// means, and docs/finding-codes.md, the page `cev validate --format sarif` links each rule to, is
// that list as it stands.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describedCodes, describeFindingCode, findingCodeAnchor, findingCodesPage } from '../../shared/findingCodes.ts';
import { schemaRuleNames } from '../../shared/schemas/issues.ts';
import { kindOf } from '../../shared/kinds.ts';
import { validateText } from '../../shared/validate.ts';
import { loadFixtures } from './golden.ts';

const root = join(import.meta.dirname, '..', '..');

/** Every .ts file under `dir`. */
function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('finding codes', () => {
  it('docs/finding-codes.md is the list as it stands', () => {
    assert.equal(
      readFileSync(join(root, 'docs', 'finding-codes.md'), 'utf8'),
      findingCodesPage(),
      'regenerate it: node -e "import(\'./shared/findingCodes.ts\').then((m) => process.stdout.write(m.findingCodesPage()))" > docs/finding-codes.md (on Node 24)',
    );
  });

  it('describes every code the golden fixtures produce', () => {
    const codes = new Set<string>();
    for (const fixture of loadFixtures()) {
      const kind = kindOf(fixture.path, fixture.text);
      if (kind !== undefined) for (const finding of validateText(kind, fixture.text).findings) codes.add(finding.code);
    }
    assert.ok(codes.size > 30, `${codes.size} codes in the fixtures`);
    assert.deepEqual(
      [...codes].filter((code) => describeFindingCode(code) === undefined),
      [],
    );
  });

  it('describes every code written in the shared core, and every rule of the schemas', () => {
    const prefixes = ['json', 'yaml', 'limits', ...describedCodes.documents];
    const literal = new RegExp(`['\`](${prefixes.join('|')})/([a-z-]+)['\`]`, 'g');
    const written = new Set<string>();
    const templated = new Set<string>();
    for (const file of sourcesUnder(join(root, 'shared'))) {
      const text = readFileSync(file, 'utf8');
      for (const [, prefix, rule] of text.matchAll(literal)) written.add(`${prefix}/${rule}`);
      for (const [, rule] of text.matchAll(/`\$\{prefix\}\/([a-z-]+)`/g)) templated.add(rule);
    }
    assert.ok(written.size > 20, `${written.size} codes written in shared/`);
    assert.deepEqual(
      [...written].filter((code) => describeFindingCode(code) === undefined),
      [],
    );
    const ownRules = new Set(describedCodes.own.map((code) => code.split('/')[1]));
    assert.deepEqual(
      [...templated].filter((rule) => !ownRules.has(rule) && !describedCodes.schemaRules.includes(rule)),
      [],
    );
    assert.deepEqual([...schemaRuleNames].sort(), [...describedCodes.schemaRules].sort());
  });

  it('gives each code its row on the page, and says what a schema rule means for the document', () => {
    const page = findingCodesPage();
    for (const code of [...describedCodes.own, 'scan/missing-field', 'policy/bad-expression', 'report/wrong-type'])
      assert.ok(page.includes(`<a id="${findingCodeAnchor(code)}"></a>`), code);
    assert.match(describeFindingCode('scan/missing-field')!.full, /schema of a scan attestation requires/);
    assert.equal(describeFindingCode('nothing/missing-field'), undefined);
    assert.equal(describeFindingCode('scan/nothing'), undefined);
  });
});
