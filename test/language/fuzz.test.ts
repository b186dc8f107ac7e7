// 1,000 seeded random edits — deletions, insertions, duplicated lines, random bytes — on real
// documents, sent to the built server as incremental changes. After every edit the server must
// publish for that very version, and now and then answer requests: it stays up and keeps up.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadFixtures } from '../unit/golden.ts';
import { startClient, type LspClient } from './lspClient.ts';

const editCount = 1000;
const seed = 20261122;

/** mulberry32: small, seedable, good enough to pick edits. */
function randomOf(state: number): () => number {
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Position {
  line: number;
  character: number;
}

function positionAt(text: string, offset: number): Position {
  const before = text.slice(0, offset);
  const line = before.split('\n').length - 1;
  return { line, character: offset - (before.lastIndexOf('\n') + 1) };
}

const yamlish = [
  '-',
  ' ',
  ':',
  '\n',
  '  ',
  'name',
  'type',
  'junit',
  '${{',
  '}}',
  '"',
  "'",
  '[',
  ']',
  '{',
  '}',
  '#',
  '&a',
  '*a',
  '!tag',
  '|',
  '>',
  '\t',
  'é',
  '0',
];

describe('language server fuzz', function () {
  this.timeout(120_000);
  let client: LspClient;

  before(async () => {
    client = startClient();
    await client.initialize({ complianceEvidence: { diagnostics: { debounceMs: 0 } } });
  });

  after(async () => {
    assert.equal(await client.stop(), 0);
  });

  it(`stays up and answers through ${editCount} seeded random edits`, async () => {
    const random = randomOf(seed);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
    const fixtures = loadFixtures().filter((fixture) => fixture.text.length > 200);
    const documents = [
      {
        uri: 'file:///fuzz/demo.flow-template.yaml',
        text: readFileSync(new URL('./fixtures/demo.flow-template.yaml', import.meta.url), 'utf8'),
      },
      {
        uri: 'file:///fuzz/demo.env-policy.yaml',
        text: readFileSync(new URL('./fixtures/demo.env-policy.yaml', import.meta.url), 'utf8'),
      },
      ...fixtures
        .filter((_, index) => index % Math.max(1, Math.floor(fixtures.length / 6)) === 0)
        .map((fixture) => ({
          uri: `file:///fuzz/${fixture.name.replace(/\//g, '-')}`,
          text: fixture.text,
        })),
    ];
    const versions = new Map<string, number>();
    for (const document of documents) {
      const published = client.nextPublish(document.uri);
      client.open(document.uri, document.uri.endsWith('.json') ? 'json' : 'yaml', document.text);
      await published;
      versions.set(document.uri, 1);
    }

    for (let edit = 0; edit < editCount; edit++) {
      const document = pick(documents);
      const text = document.text;
      let start = Math.floor(random() * (text.length + 1));
      let end = start;
      let inserted = '';
      const action = random();
      if (action < 0.3) {
        end = Math.min(text.length, start + Math.floor(random() * 20));
      } else if (action < 0.6) {
        inserted = Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(yamlish)).join('');
      } else if (action < 0.8) {
        start = end = text.lastIndexOf('\n', start - 1) + 1;
        const lineEnd = text.indexOf('\n', start);
        inserted = `${text.slice(start, lineEnd < 0 ? text.length : lineEnd)}\n`;
      } else {
        inserted = String.fromCharCode(
          ...Array.from({ length: 1 + Math.floor(random() * 8) }, () => Math.floor(random() * 65536)),
        );
      }
      const range = { start: positionAt(text, start), end: positionAt(text, end) };
      document.text = text.slice(0, start) + inserted + text.slice(end);
      const version = versions.get(document.uri)! + 1;
      versions.set(document.uri, version);
      const published = client.nextPublish(document.uri, (publish) => publish.version === version);
      void client.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri: document.uri, version },
        contentChanges: [{ range, text: inserted }],
      });
      await published;
      if (edit % 25 === 0) {
        const offset = Math.floor(random() * (document.text.length + 1));
        const textDocument = { uri: document.uri };
        const position = positionAt(document.text, offset);
        await client.request('textDocument/completion', { textDocument, position });
        await client.request('textDocument/hover', { textDocument, position });
        await client.request('textDocument/documentSymbol', { textDocument });
        await client.request('textDocument/foldingRange', { textDocument });
      }
    }
    assert.equal(client.process.exitCode, null, 'the server is still running');
    const errors = client.logs.filter((log) => log.type === 1).map((log) => log.message);
    assert.deepEqual(errors, [], 'no handler failed');
  });
});
