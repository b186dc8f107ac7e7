// The built language server (dist/language-server.js) spoken to over stdio, as an editor does.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { ServerCapabilities } from 'vscode-languageserver';
import { startClient, type LspClient, type Publish } from './lspClient.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const template = fixture('demo.flow-template.yaml');
const brokenTemplate = template.replace('type: snyk', 'type: snykk');
let pulledSettings: unknown = null;

describe('language server over stdio', function () {
  this.timeout(30_000);
  let client: LspClient;
  let capabilities: ServerCapabilities;

  before(async () => {
    client = startClient({ configuration: (section) => (section === 'complianceEvidence' ? pulledSettings : null) });
    capabilities = (await client.initialize({ complianceEvidence: { diagnostics: { debounceMs: 0 } } })).capabilities;
  });

  after(async () => {
    assert.equal(await client.stop(), 0, 'the server exits with 0 after shutdown and exit');
  });

  async function opened(uri: string, text: string, languageId = 'yaml'): Promise<Publish> {
    const published = client.nextPublish(uri);
    client.open(uri, languageId, text);
    return published;
  }

  it('announces incremental sync, completion, hover, outline, folding and quick fixes', () => {
    assert.deepEqual(capabilities.textDocumentSync, { openClose: true, change: 2 });
    for (const feature of [
      'completionProvider',
      'hoverProvider',
      'documentSymbolProvider',
      'foldingRangeProvider',
      'codeActionProvider',
    ] as const) {
      assert.ok(capabilities[feature], feature);
    }
  });

  it('publishes findings with range, severity, code, source and data when a document opens', async () => {
    const publish = await opened('file:///w/open.flow-template.yaml', brokenTemplate);
    assert.equal(publish.version, 1);
    assert.equal(publish.diagnostics.length, 1);
    const [diagnostic] = publish.diagnostics;
    assert.deepEqual(diagnostic.range, { start: { line: 14, character: 16 }, end: { line: 14, character: 21 } });
    assert.equal(diagnostic.severity, 1);
    assert.equal(diagnostic.code, 'template/unknown-attestation-type');
    assert.equal(diagnostic.source, 'compliance-evidence');
    assert.deepEqual((diagnostic.data as { facts: { suggestions: string[] } }).facts.suggestions, ['snyk']);
  });

  it('re-validates on change and clears on close', async () => {
    const uri = 'file:///w/edit.flow-template.yaml';
    await opened(uri, brokenTemplate);
    const fixed = client.nextPublish(uri);
    void client.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: 2 },
      contentChanges: [{ range: { start: { line: 14, character: 20 }, end: { line: 14, character: 21 } }, text: '' }],
    });
    assert.deepEqual(await fixed, { uri, version: 2, diagnostics: [] });
    const broken = client.nextPublish(uri);
    client.change(uri, 3, 'version: 3\n');
    assert.equal((await broken).diagnostics[0].code, 'template/bad-version');
    const cleared = client.nextPublish(uri);
    client.close(uri);
    assert.deepEqual((await cleared).diagnostics, []);
  });

  it('reports YAML syntax errors where they are', async () => {
    const publish = await opened('file:///w/syntax.flow-template.yaml', 'version: 1\ntrail:\n  attestations: [a, b\n');
    assert.ok(publish.diagnostics.length > 0);
    assert.equal(publish.diagnostics[0].code, 'yaml/syntax');
    assert.ok(publish.diagnostics[0].range.start.line >= 2);
  });

  it('knows a document by its modeline or its policy _schema, whatever its name', async () => {
    const byModeline = await opened('untitled:Untitled-1', '# cev: flow-template\nversion: 2\n');
    assert.deepEqual(
      byModeline.diagnostics.map((d) => d.code),
      ['template/bad-version'],
    );
    const bySchema = await opened(
      'untitled:Untitled-2',
      '_schema: https://example.com/policy/v1\nartifacts:\n  attestations:\n    - name: "*"\n      type: "*"\n',
    );
    assert.deepEqual(
      bySchema.diagnostics.map((d) => d.code),
      ['policy/any-name-any-type'],
    );
    const unknown = await opened('file:///w/notes.yaml', 'version: 2\n');
    assert.deepEqual(unknown.diagnostics, []);
  });

  it('validates JSON payloads: K8S reports and scan attestations', async () => {
    const report = await opened('file:///w/prod.k8s-report.json', fixture('demo.k8s-report.json'), 'json');
    assert.deepEqual(report.diagnostics, []);
    const scan = await opened('file:///w/build.scan-attestation.json', '{"attestation_name": 1,', 'json');
    assert.equal(scan.diagnostics[0].code, 'json/syntax');
  });

  it('answers completion, hover, outline, folding and quick fixes', async () => {
    const uri = 'file:///w/features.flow-template.yaml';
    const publish = await opened(uri, brokenTemplate);
    const textDocument = { uri };
    const completion = await client.request<{ items: { label: string }[] }>('textDocument/completion', {
      textDocument,
      position: { line: 14, character: 18 },
    });
    assert.ok(completion.items.some((item) => item.label === 'snyk'));
    const hover = await client.request<{ contents: { value: string } }>('textDocument/hover', {
      textDocument,
      position: { line: 12, character: 19 },
    });
    assert.match(hover.contents.value, /no failures and no errors/);
    const symbols = await client.request<{ name: string }[]>('textDocument/documentSymbol', { textDocument });
    assert.deepEqual(
      symbols.map((symbol) => symbol.name),
      ['version', 'trail'],
    );
    const folding = await client.request<unknown[]>('textDocument/foldingRange', { textDocument });
    assert.ok(folding.length > 5);
    const actions = await client.request<{ title: string; edit: unknown }[]>('textDocument/codeAction', {
      textDocument,
      range: publish.diagnostics[0].range,
      context: { diagnostics: publish.diagnostics },
    });
    assert.deepEqual(
      actions.map((action) => action.title),
      ["Change type to 'snyk'"],
    );
  });

  it('answers empty for documents it does not own', async () => {
    await opened('file:///w/other.yaml', 'a: 1\n');
    const hover = await client.request('textDocument/hover', {
      textDocument: { uri: 'file:///w/other.yaml' },
      position: { line: 0, character: 0 },
    });
    assert.equal(hover, null);
  });

  it('caps the problems of a document and says how many more there are', async () => {
    const uri = 'file:///w/capped.flow-template.yaml';
    const lines = ['version: 1', 'trail:', '  attestations:'];
    for (let i = 0; i < 8; i++) lines.push(`    - name: a${i}`, '      type: nope');
    await client.connection.sendNotification('workspace/didChangeConfiguration', {
      settings: { complianceEvidence: { diagnostics: { debounceMs: 0, maxProblems: 3 } } },
    });
    const publish = await opened(uri, `${lines.join('\n')}\n`);
    assert.equal(publish.diagnostics.length, 4);
    assert.equal(publish.diagnostics[3].code, 'editor/more-problems');
    assert.match(publish.diagnostics[3].message, /^5 more problems not shown/);
  });

  it('follows configuration changes: globs pushed, then pulled', async () => {
    const renamed = 'file:///w/build.tpl.yaml';
    const before = await opened(renamed, 'version: 2\n');
    assert.deepEqual(before.diagnostics, []);
    const original = 'file:///w/open.flow-template.yaml';
    const reassociated = client.nextPublish(renamed, (publish) => publish.diagnostics.length === 1);
    const released = client.nextPublish(original, (publish) => publish.diagnostics.length === 0);
    await client.connection.sendNotification('workspace/didChangeConfiguration', {
      settings: { complianceEvidence: { files: { flowTemplate: ['**/*.tpl.yaml'] }, diagnostics: { debounceMs: 0 } } },
    });
    assert.equal((await reassociated).diagnostics[0].code, 'template/bad-version');
    await released;

    pulledSettings = { files: { flowTemplate: ['**/*flow-template*.yaml'] }, diagnostics: { debounceMs: 0 } };
    const back = client.nextPublish(original, (publish) => publish.diagnostics.length === 1);
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: null });
    await back;
  });

  it('survives hostile text: junk bytes, 50,000 lines, deep nesting, alias bombs, custom tags', async () => {
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 10; i++)
      bomb.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(',')}]`,
      );
    const texts = [
      Array.from({ length: 4096 }, (_, i) => String.fromCharCode((i * 7919) % 65536)).join(''),
      `version: 1\ntrail:\n  attestations:\n${'    - name: n\n      type: junit\n'.repeat(25_000)}`,
      `version: 1\ntrail: ${'['.repeat(5000)}${']'.repeat(5000)}\n`,
      `version: 1\ntrail:\n${'  '.repeat(1)}${Array.from({ length: 400 }, (_, i) => `${' '.repeat(i * 2)}k${i}:`).join('\n')}\n`,
      `${bomb.join('\n')}\n`,
      'version: !custom 1\ntrail: !!binary aGVsbG8=\n',
    ];
    for (const [index, text] of texts.entries()) {
      const publish = await opened(`file:///w/hostile-${index}.flow-template.yaml`, text);
      assert.ok(Array.isArray(publish.diagnostics));
    }
    const json = await opened('file:///w/deep.k8s-report.json', `${'['.repeat(100_000)}`, 'json');
    assert.equal(json.diagnostics[0].code, 'json/syntax');
    const hover = await client.request('textDocument/hover', {
      textDocument: { uri: 'file:///w/hostile-2.flow-template.yaml' },
      position: { line: 1, character: 9 },
    });
    assert.ok(hover === null || typeof hover === 'object');
  });

  it('logs the duration of every request at debug level', () => {
    const debug = client.logs.filter((log) => log.type === 5).map((log) => log.message);
    for (const request of [
      'textDocument/hover',
      'textDocument/completion',
      'textDocument/documentSymbol',
      'textDocument/codeAction',
      'diagnostics',
    ]) {
      assert.ok(
        debug.some((message) => new RegExp(`^${request} took \\d+\\.\\d ms$`).test(message)),
        `${request} logged`,
      );
    }
  });
});
