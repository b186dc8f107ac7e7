// Completion, hover, outline, folding and quick fixes as pure functions of a document.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CompletionItem, Diagnostic, TextEdit } from 'vscode-languageserver';
import { codeActionsFor } from '../../../server/language/service/codeActions.ts';
import { completionsAt } from '../../../server/language/service/completion.ts';
import { diagnosticsOf } from '../../../server/language/service/diagnostics.ts';
import { foldingRangesOf } from '../../../server/language/service/folding.ts';
import { hoverAt } from '../../../server/language/service/hover.ts';
import { documentSymbolsOf } from '../../../server/language/service/symbols.ts';
import type { DocumentKind } from '../../../shared/validate.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8');
let version = 0;
const documentOf = (text: string, name = 'doc.flow-template.yaml') =>
  TextDocument.create(`file:///w/${name}`, 'yaml', ++version, text);

/** The document and the position of `|` in `text` (the marker is removed). */
function at(text: string, name?: string) {
  const offset = text.indexOf('|');
  const document = documentOf(text.slice(0, offset) + text.slice(offset + 1), name);
  return { document, position: document.positionAt(offset) };
}

function labels(items: CompletionItem[]): string[] {
  return items.map((item) => item.label);
}

function applied(document: TextDocument, edits: TextEdit[]): string {
  return TextDocument.applyEdits(document, edits);
}

function hoverText(kind: DocumentKind, text: string, name?: string): string {
  const { document, position } = at(text, name);
  const hover = hoverAt(kind, document, position);
  return hover === null ? '' : (hover.contents as { value: string }).value;
}

describe('language service: completion', () => {
  it('offers the keys an attestation may still have', () => {
    const { document, position } = at('version: 1\ntrail:\n  attestations:\n    - name: a\n      |\n');
    const result = completionsAt('flow-template', document, position);
    assert.deepEqual(labels(result.items), ['type']);
  });

  it('offers a whole attestation entry after a list dash, and the keys of one', () => {
    const { document, position } = at('version: 1\ntrail:\n  attestations:\n    - |\n');
    const items = completionsAt('flow-template', document, position).items;
    assert.deepEqual(labels(items), ['attestation entry', 'name', 'type']);
    const entry = items[0];
    assert.match(
      (entry.textEdit as TextEdit).newText,
      /^name: \$\{1\}\n {2}type: \$\{2\|generic,junit,snyk,scan,jira,pull_request,decision,"\*"\|\}$/,
    );
  });

  it('offers a whole artifact entry with one attestation', () => {
    const { document, position } = at('version: 1\ntrail:\n  artifacts:\n    - |\n');
    const entry = completionsAt('flow-template', document, position).items[0];
    assert.equal(entry.label, 'artifact entry');
    assert.equal(
      (entry.textEdit as TextEdit).newText,
      'name: ${1}\n  attestations:\n    - name: ${2}\n      type: ${3|generic,junit,snyk,scan,jira,pull_request,decision,"*"|}',
    );
  });

  it('offers a whole entry, dash included, on an empty line under a list key', () => {
    const { document, position } = at('version: 1\ntrail:\n  attestations:\n    |\n');
    const [entry] = completionsAt('flow-template', document, position).items;
    assert.equal(entry.label, 'attestation entry');
    assert.match((entry.textEdit as TextEdit).newText, /^- name: \$\{1\}\n {2}type: /);
  });

  it('offers the top-level keys not yet written', () => {
    const { document, position } = at('version: 1\n|\n');
    assert.deepEqual(labels(completionsAt('flow-template', document, position).items), ['trail']);
  });

  it('offers attestation types, with custom types as a snippet', () => {
    const { document, position } = at('version: 1\ntrail:\n  attestations:\n    - name: a\n      type: ju|\n');
    const items = completionsAt('flow-template', document, position).items;
    assert.deepEqual(labels(items), [
      'generic',
      'junit',
      'snyk',
      'scan',
      'jira',
      'pull_request',
      'decision',
      '*',
      'custom:…',
    ]);
    const star = items.find((item) => item.label === '*')!;
    assert.equal((star.textEdit as TextEdit).newText, '"*"', 'a bare * would be a YAML alias');
    assert.deepEqual((star.textEdit as { range: unknown }).range, {
      start: { line: 4, character: 12 },
      end: { line: 4, character: 14 },
    });
  });

  it('offers attestation types in a policy rule too', () => {
    const { document, position } = at(
      '_schema: https://x/policy/v1\nartifacts:\n  attestations:\n    - type: |\n',
      'p.env-policy.yaml',
    );
    const items = labels(completionsAt('env-policy', document, position).items);
    assert.deepEqual(items, ['generic', 'junit', 'snyk', 'scan', 'jira', 'pull_request', 'decision', '*', 'custom:…']);
  });

  it('offers JSON values from shared definitions, quoted unless the cursor is in a string', () => {
    const inString = at('{"repo_info": {"provider": "|"}}', 'a.scan-attestation.json');
    const quotedItems = completionsAt('scan-attestation', inString.document, inString.position).items;
    assert.ok(quotedItems.length > 0, 'values of a $ref into the common definitions');
    assert.equal((quotedItems[0].textEdit as TextEdit).newText, quotedItems[0].label);
    const bare = at('{"repo_info": {"provider": |}}', 'a.scan-attestation.json');
    const bareItems = completionsAt('scan-attestation', bare.document, bare.position).items;
    assert.equal((bareItems[0].textEdit as TextEdit).newText, JSON.stringify(bareItems[0].label));
  });

  it('offers booleans for policy rule fields', () => {
    const { document, position } = at(
      '_schema: https://x/policy/v1\nartifacts:\n  provenance:\n    required: |\n',
      'p.env-policy.yaml',
    );
    assert.deepEqual(labels(completionsAt('env-policy', document, position).items), ['true', 'false']);
  });

  it('offers contexts and functions inside ${{ }}', () => {
    const { document, position } = at(
      '_schema: https://x/policy/v1\nartifacts:\n  attestations:\n    - type: junit\n      if: ${{ fl| }}\n',
      'p.env-policy.yaml',
    );
    const items = completionsAt('env-policy', document, position).items;
    for (const word of [
      'flow.name',
      'flow.tags.<key>',
      'artifact.name',
      'artifact.fingerprint',
      'exists',
      'matches',
      'and',
      'not',
    ]) {
      assert.ok(labels(items).includes(word), `${word} offered`);
    }
    const tags = items.find((item) => item.label === 'flow.tags.<key>')!;
    assert.equal((tags.textEdit as TextEdit).newText, 'flow.tags.${1:key}');
    assert.deepEqual((tags.textEdit as { range: unknown }).range, {
      start: { line: 4, character: 14 },
      end: { line: 4, character: 16 },
    });
  });

  it('offers keys inside JSON strings of a scan attestation', () => {
    const { document, position } = at('{\n  "|"\n}\n', 'x.scan-attestation.json');
    const items = labels(completionsAt('scan-attestation', document, position).items);
    assert.ok(items.length > 3, `keys offered: ${items.join(', ')}`);
  });

  it('never throws, whatever the text and position', () => {
    const texts = [
      '',
      '|',
      '- |',
      ': : :|',
      '{"a": [|',
      'version: 1\ntrail: [|',
      '\u0000\u0001|\uffff',
      '${{|',
      'a: ${{ flow.| }}',
    ];
    for (const text of texts) {
      const { document, position } = at(text.includes('|') ? text : `${text}|`);
      completionsAt('flow-template', document, position);
      completionsAt('env-policy', document, position);
    }
  });
});

describe('language service: hover', () => {
  const template = fixture('demo.flow-template.yaml');
  it('describes a key from the schema', () => {
    assert.match(
      hoverText('flow-template', template.replace('  artifacts:', '  arti|facts:')),
      /\*\*artifacts\*\*\n\nArtifacts the trail produces/,
    );
  });
  it('says what makes an attestation type compliant', () => {
    assert.match(
      hoverText('flow-template', template.replace('type: junit', 'type: ju|nit')),
      /no failures and no errors/,
    );
    assert.match(
      hoverText('flow-template', template.replace('type: custom:coverage-metrics', 'type: cus|tom:coverage-metrics')),
      /custom type/,
    );
  });
  it('explains contexts, functions and operators inside ${{ }}', () => {
    const policy = fixture('demo.env-policy.yaml');
    assert.match(
      hoverText('env-policy', policy.replace('flow.name ==', 'flow.na|me =='), 'p.env-policy.yaml'),
      /\*\*flow\.name\*\* \(context\)/,
    );
    assert.match(
      hoverText('env-policy', policy.replace('exists(', 'exi|sts('), 'p.env-policy.yaml'),
      /\*\*exists\*\* \(exists\(value\)\)/,
    );
    assert.match(
      hoverText('env-policy', policy.replace('flow.tags.team !=', 'flow.tags.te|am !='), 'p.env-policy.yaml'),
      /flow\.tags\.<key>/,
    );
    assert.match(
      hoverText(
        'env-policy',
        policy.replace('"runner"', '"runner"').replace('== "runner"', '=|= "runner"'),
        'p.env-policy.yaml',
      ),
      /Equal/,
    );
  });
  it('describes JSON keys defined in the shared common definitions', () => {
    const text = '{"attestation_name": "x", "repo_info": {"prov|ider": "y"}, "git_commit_info": {"sha1": "abc"}}';
    assert.match(hoverText('scan-attestation', text, 'a.scan-attestation.json'), /^\*\*provider\*\*\n\n\S/);
  });

  it('has nothing to say outside any known key', () => {
    assert.equal(hoverText('flow-template', '|# just a comment\nversion: 1\n'), '');
  });
});

describe('language service: outline and folding', () => {
  it('lists trail attestations, artifacts and their attestations by name and type', () => {
    const document = documentOf(fixture('demo.flow-template.yaml'));
    const symbols = documentSymbolsOf('flow-template', document);
    assert.deepEqual(
      symbols.map((symbol) => symbol.name),
      ['version', 'trail'],
    );
    const trail = symbols[1].children!;
    assert.deepEqual(
      trail.map((symbol) => symbol.name),
      ['attestations', 'artifacts'],
    );
    assert.deepEqual(symbols[1].range.end, { line: 23, character: 28 }, 'a symbol ends where its text ends');
    assert.deepEqual(
      trail[0].children!.map((symbol) => `${symbol.name} ${symbol.detail}`),
      ['jira-ticket jira', 'risk-level-assessment generic'],
    );
    const backend = trail[1].children![0];
    assert.equal(backend.name, 'backend');
    const backendAttestations = backend.children!.find((symbol) => symbol.name === 'attestations')!;
    assert.deepEqual(
      backendAttestations.children!.map((symbol) => symbol.name),
      ['unit-test', 'security-scan', 'code-coverage'],
    );
  });

  it('lists policy rules', () => {
    const document = documentOf(fixture('demo.env-policy.yaml'), 'p.env-policy.yaml');
    const artifacts = documentSymbolsOf('env-policy', document).find((symbol) => symbol.name === 'artifacts')!;
    assert.deepEqual(
      artifacts.children!.map((symbol) => symbol.name),
      ['provenance', 'trail-compliance', 'attestations'],
    );
    assert.deepEqual(
      artifacts.children![2].children!.map((symbol) => symbol.name),
      ['unit-test', 'decision'],
    );
  });

  it('lists pods of a K8S report by name', () => {
    const document = TextDocument.create('file:///w/r.k8s-report.json', 'json', 1, fixture('demo.k8s-report.json'));
    const artifacts = documentSymbolsOf('k8s-report', document)[0];
    assert.deepEqual(
      artifacts.children!.map((symbol) => symbol.name),
      ['backend-7d9f8c6b5-abcde'],
    );
  });

  it('folds every multi-line key and item', () => {
    const ranges = foldingRangesOf(documentOf(fixture('demo.flow-template.yaml')));
    assert.ok(
      ranges.some((range) => range.startLine === 2 && range.endLine === 23),
      'trail folds to the last line',
    );
    assert.ok(
      ranges.some((range) => range.startLine === 9 && range.endLine === 16),
      'backend folds without the blank line after it',
    );
    for (const range of ranges) assert.ok(range.endLine > range.startLine);
  });
});

describe('language service: quick fixes', () => {
  function fixes(kind: DocumentKind, text: string, name?: string) {
    const document = documentOf(text, name);
    const diagnostics: Diagnostic[] = diagnosticsOf(kind, document, 100);
    return codeActionsFor(kind, document, diagnostics).map((action) => ({
      title: action.title,
      code: action.diagnostics?.[0]?.code,
      result: applied(document, action.edit!.changes![document.uri]),
    }));
  }

  it('changes a misspelled type to the likely one', () => {
    const [fix] = fixes('flow-template', 'version: 1\ntrail:\n  attestations:\n    - name: a\n      type: junitt\n');
    assert.equal(fix.title, "Change type to 'junit'");
    assert.equal(fix.result, 'version: 1\ntrail:\n  attestations:\n    - name: a\n      type: junit\n');
  });

  it('changes a misspelled key to the likely one', () => {
    const [fix] = fixes('flow-template', 'version: 1\ntrail:\n  attestations:\n    - nmae: a\n      type: junit\n');
    assert.equal(fix.title, "Change key to 'name'");
    assert.match(fix.result, /- name: a\n/);
  });

  it('adds a missing version after the modeline', () => {
    const [fix] = fixes('flow-template', '# cev: flow-template\ntrail: {}\n', 'x.yaml');
    assert.equal(fix.result, '# cev: flow-template\nversion: 1\ntrail: {}\n');
  });

  it('sets a wrong version to 1', () => {
    const [fix] = fixes('flow-template', 'version: 2\n');
    assert.equal(fix.result, 'version: 1\n');
  });

  it('fixes the _schema URL of a policy', () => {
    const [fix] = fixes(
      'env-policy',
      '_schema: https://example.com/policy/v2\nartifacts:\n  provenance:\n    required: true\n',
      'p.env-policy.yaml',
    );
    assert.equal(fix.code, 'policy/bad-schema-url');
    assert.match(fix.result, /^_schema: https:\/\/\S+\/policy\/environment\/v1\n/);
  });

  it('changes a misspelled JSON key, keeping its quotes', () => {
    const text = '{"attestation_nme": "scan", "scan_results": {}}';
    const fix = fixes('scan-attestation', text, 'x.scan-attestation.json').find(
      (candidate) => candidate.code === 'scan/unknown-key',
    )!;
    assert.equal(fix.title, "Change key to 'attestation_name'");
    assert.match(fix.result, /^\{"attestation_name": "scan"/);
  });

  it('renames a duplicate name to a free one', () => {
    const text =
      'version: 1\ntrail:\n  attestations:\n    - name: a\n      type: junit\n    - name: a\n      type: snyk\n    - name: a-2\n      type: jira\n';
    const fix = fixes('flow-template', text).find((candidate) => candidate.code === 'template/duplicate-name')!;
    assert.equal(fix.title, "Rename to 'a-3'");
    assert.match(fix.result, /- name: a-3\n {6}type: snyk/);
  });

  it('offers no rename for a duplicate written as an alias, whose finding is on the alias', () => {
    const text = 'version: 1\ntrail:\n  artifacts:\n    - &a\n      name: a\n    - *a\n';
    const [diagnostic] = diagnosticsOf('flow-template', documentOf(text), 100);
    assert.equal(diagnostic.code, 'template/duplicate-name');
    assert.deepEqual(diagnostic.range, { start: { line: 5, character: 6 }, end: { line: 5, character: 8 } });
    assert.deepEqual(
      fixes('flow-template', text).filter((candidate) => candidate.code === 'template/duplicate-name'),
      [],
    );
  });
});
