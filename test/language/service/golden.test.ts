// The editor's diagnostics on the core's golden fixtures: the same codes on the same lines as the
// `# want` markers, through the language service (kind resolution, kept tree, LSP positions).
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { diagnosticsOf } from '../../../server/language/service/diagnostics.ts';
import { documentKindOf } from '../../../server/language/service/documentKind.ts';
import { defaultFileGlobs } from '../../../shared/settings.ts';
import { loadFixtures } from '../../unit/golden.ts';

describe('language service: golden fixtures', () => {
  for (const fixture of loadFixtures()) {
    it(fixture.name, () => {
      const uri = pathToFileURL(fixture.path).href;
      const kind = documentKindOf(uri, fixture.text, defaultFileGlobs);
      assert.ok(kind, `${fixture.name} names no document kind`);
      const document = TextDocument.create(uri, fixture.path.endsWith('.json') ? 'json' : 'yaml', 1, fixture.text);
      const diagnostics = diagnosticsOf(kind, document, 10_000);
      const got = diagnostics
        .map((diagnostic) => `${diagnostic.range.start.line + 1} ${String(diagnostic.code)}`)
        .sort();
      assert.deepEqual(got, fixture.want);
      for (const diagnostic of diagnostics) assert.equal(diagnostic.source, 'compliance-evidence');
    });
  }
});
