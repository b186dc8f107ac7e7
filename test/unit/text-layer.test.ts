import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { PathSegment } from '../../shared/findings.ts';
import { defaultKindGlobs, globMatches, kindByFileName, kindByText, kindOf } from '../../shared/kinds.ts';
import { jsonSyntaxErrorOf } from '../../shared/text/json-syntax.ts';
import { jsonLocatorOf } from '../../shared/text/jsonLocate.ts';
import { locatorOf } from '../../shared/text/locate.ts';
import { parseJson, parseYaml } from '../../shared/text/parse.ts';
import { parseYamlTree } from '../../shared/text/yamlTree.ts';
import { lineIndexOf } from '../../shared/text/positions.ts';
import { distanceBetween, suggestionsFor } from '../../shared/text/suggest.ts';

describe('positions', () => {
  it('maps offsets to 0-based lines and characters and back', () => {
    const text = 'ab\r\ncd\n\nxé\n';
    const lines = lineIndexOf(text);
    assert.equal(lines.lineCount, 5);
    assert.deepEqual(lines.positionAt(0), { line: 0, character: 0 });
    assert.deepEqual(lines.positionAt(4), { line: 1, character: 0 });
    assert.deepEqual(lines.positionAt(9), { line: 3, character: 1 });
    assert.deepEqual(lines.positionAt(text.length), { line: 4, character: 0 });
    assert.deepEqual(lines.positionAt(999), { line: 4, character: 0 });
    assert.equal(lines.offsetAt({ line: 1, character: 1 }), 5);
    assert.equal(lines.offsetAt({ line: 1, character: 99 }), 6);
    assert.equal(lines.offsetAt({ line: 99, character: 0 }), text.length);
  });
});

describe('locating paths in the text', () => {
  const yaml = 'version: 1\ntrail:\n  attestations:\n    - name: tests\n      type: junit\n';
  const parsed = parseYaml(yaml);
  const slice = (path: (string | number)[], target: 'key' | 'value') => {
    const range = parsed.locate(path, target);
    return yaml.slice(range.start, range.end);
  };

  it('finds keys and values, and falls back to the nearest existing parent', () => {
    assert.equal(slice(['trail', 'attestations', 0, 'type'], 'value'), 'junit');
    assert.equal(slice(['trail', 'attestations', 0, 'type'], 'key'), 'type');
    assert.equal(slice(['trail', 'attestations', 0, 'missing'], 'value'), 'name: tests');
    assert.equal(slice(['trail', 'artifacts'], 'value'), 'trail');
    assert.equal(slice(['nothing', 'here'], 'value'), 'version: 1');
  });

  it('finds the same places in JSON', () => {
    const json = '{\n  "a": {"b": [1, {"c": true}]}\n}';
    const parsedJson = parseJson(json);
    const range = parsedJson.locate(['a', 'b', 1, 'c'], 'value');
    assert.equal(json.slice(range.start, range.end), 'true');
    const key = parsedJson.locate(['a', 'b'], 'key');
    assert.equal(json.slice(key.start, key.end), '"b"');
  });

  it('places every path of a JSON text where its YAML tree places it, in one pass for all of them', () => {
    /** Every path of the value, and each one step further (a field or an item that is not there). */
    const pathsOf = (value: unknown, path: PathSegment[] = []): PathSegment[][] => {
      const here = [path, [...path, 'missing'], [...path, 7]];
      if (Array.isArray(value)) return [...here, ...value.flatMap((item, index) => pathsOf(item, [...path, index]))];
      if (value !== null && typeof value === 'object')
        return [...here, ...Object.entries(value).flatMap(([key, item]) => pathsOf(item, [...path, key]))];
      return here;
    };
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom(0, 1, 2, '\t'), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        const paths = pathsOf(value);
        const byTree = locatorOf(parseYamlTree(text), text);
        const inOnePass = jsonLocatorOf(text, paths);
        for (const path of paths)
          for (const target of ['key', 'value'] as const)
            assert.deepEqual(
              inOnePass(path, target),
              byTree(path, target),
              `${JSON.stringify(path)} ${target} in ${text}`,
            );
      }),
      { numRuns: 300, seed: 23 },
    );
  });
});

describe('JSON syntax errors', () => {
  it('points at the first offending character', () => {
    assert.equal(jsonSyntaxErrorOf('{"a": 1}'), undefined);
    assert.equal(jsonSyntaxErrorOf(' [1, 2.5e3, "x\\u00e9", null, true, {}] '), undefined);
    assert.deepEqual(jsonSyntaxErrorOf('{"a": 1,}'), {
      start: 7,
      end: 8,
      message: "Trailing comma: remove the ',' before '}'",
    });
    assert.equal(jsonSyntaxErrorOf('[1,]')?.start, 2);
    assert.equal(jsonSyntaxErrorOf('{"a" 1}')?.message, "Expected ':' after the property name");
    assert.equal(jsonSyntaxErrorOf('{"a": "x\ny"}')?.start, 8);
    assert.equal(jsonSyntaxErrorOf('{"a": "x')?.start, 6);
    assert.equal(jsonSyntaxErrorOf('{} {}')?.message, 'Unexpected text after the JSON value');
    assert.equal(jsonSyntaxErrorOf('{"a": tru}')?.start, 6);
    assert.equal(jsonSyntaxErrorOf('')?.start, 0);
  });
});

describe('document kinds', () => {
  it('by file name, with the default globs or configured ones', () => {
    assert.equal(kindByFileName('/repo/.ci/release.flow-template.yml'), 'flow-template');
    assert.equal(kindByFileName('C:\\work\\prod-env-policy.yaml'), 'env-policy');
    assert.equal(kindByFileName('out/scan-attestation.json'), 'scan-attestation');
    assert.equal(kindByFileName('k8s-report-prod.json'), 'k8s-report');
    assert.equal(kindByFileName('flow-template.json'), undefined);
    assert.equal(
      kindByFileName('templates/release.yml', { ...defaultKindGlobs, 'flow-template': ['templates/*.yml'] }),
      'flow-template',
    );
    assert.ok(globMatches('**/ci/**/*.{yml,yaml}', 'a/ci/b/c/x.yaml'));
    assert.ok(!globMatches('ci/*.yml', 'ci/b/x.yml'));
  });

  it('by text: a first-line modeline, or a policy _schema URL; text wins over the name', () => {
    assert.equal(kindByText('# cev: env-policy\n'), 'env-policy');
    assert.equal(kindByText('#cev: flow-template\nversion: 1'), 'flow-template');
    assert.equal(kindByText('_schema: "https://x.example/policy/environment/v1"\n'), 'env-policy');
    assert.equal(kindByText('_schema: https://x.example/flow/v1\n'), undefined);
    assert.equal(kindOf('a.flow-template.yaml', '# cev: env-policy\n'), 'env-policy');
  });

  it('by the $schema forms the docs use: the yaml-language-server modeline, # $schema:, and a top-level $schema key', () => {
    const template = 'https://compliance.example.com/api/v2/schemas/flow-template/v1';
    assert.equal(kindByText(`# yaml-language-server: $schema=${template}\nversion: 1\n`), 'flow-template');
    assert.equal(
      kindByText(`# Release flow\n\n# yaml-language-server: $schema=${template}\nversion: 1\n`),
      'flow-template',
      'any header comment line',
    );
    assert.equal(
      kindByText('# yaml-language-server: $schema=https://x.example/schemas/flow-template.json\n'),
      'flow-template',
    );
    assert.equal(kindByText('# $schema: https://x.example/api/v2/schemas/environment-policy/v1\n'), 'env-policy');
    assert.equal(kindByText('# yaml-language-server: $schema=https://x.example/policy/v1\n'), 'env-policy');
    assert.equal(kindByText(`$schema: ${template}\nversion: 1\n`), 'flow-template');
    assert.equal(kindByText(`{\n  "$schema": "${template}"\n}`), 'flow-template');
    assert.equal(
      kindByText(`version: 1\n# yaml-language-server: $schema=${template}\n`),
      undefined,
      'after content it is no header',
    );
    assert.equal(kindByText('# yaml-language-server: $schema=https://x.example/other.json\n'), undefined);
    assert.equal(
      kindByText('_schema: https://x.example/schemas/flow-template/v1\n'),
      undefined,
      "a policy's _schema declares only a policy",
    );
    assert.equal(kindOf('ci/release.yml', `# yaml-language-server: $schema=${template}\n`), 'flow-template');
    assert.equal(
      kindOf('x.env-policy.yaml', `# yaml-language-server: $schema=${template}\n`),
      'flow-template',
      'the declaration wins over the name',
    );
  });
});

describe('suggestions', () => {
  it('counts a transposition as one edit and ranks the closest first', () => {
    assert.equal(distanceBetween('juint', 'junit'), 1);
    assert.deepEqual(suggestionsFor('juint', ['generic', 'junit', 'jira']), ['junit']);
    assert.deepEqual(suggestionsFor('zzzzzz', ['generic', 'junit']), []);
  });
});
