// When the built server checks a document after edits (over stdio, with the settings it ships
// with): whatever the document costs, a burst of edits ends with a publish of the last version,
// and no publish follows a newer version's. The edits alternate a valid and a misspelt type, so
// every publish must also hold the findings of the very version it names.
import assert from 'node:assert/strict';
import { startClient, type LspClient, type Publish } from './lspClient.ts';

const burst = 20;
/** Artifacts of the expensive template: 3 slots each, the most the slot limit takes (shared/limits.ts). */
const EXPENSIVE = 330;

/** A flow template of about `artifacts` × 6 lines; its last artifact's unit-test type is the one the edits change. */
function templateOf(artifacts: number): { text: string; line: number; character: number } {
  const lines = ['version: 1', 'trail:', '  artifacts:'];
  for (let i = 0; i < artifacts; i++) {
    lines.push(
      `    - name: artifact-${i}`,
      '      attestations:',
      '        - name: unit-test',
      '          type: junit',
      '        - name: security-scan',
      '          type: snyk',
    );
  }
  return { text: `${lines.join('\n')}\n`, line: lines.length - 3, character: '          type: '.length };
}

/** Even versions carry the misspelt type, odd ones the right one (version 1 is the text as opened). */
const typeAt = (version: number): string => (version % 2 === 0 ? 'juint' : 'junit');

function assertMatchesItsVersion(publish: Publish): void {
  const codes = publish.diagnostics.map((diagnostic) => diagnostic.code);
  assert.deepEqual(
    codes,
    publish.version! % 2 === 0 ? ['template/unknown-attestation-type'] : [],
    `the findings of version ${publish.version}`,
  );
}

describe('language server scheduling of checks', function () {
  this.timeout(120_000);
  let client: LspClient;

  before(async () => {
    client = startClient();
    await client.initialize();
    // The first check of a fresh process runs cold code; it should not be taken for the cost of the documents below.
    const warm = client.nextPublish('file:///w/warm-up.flow-template.yaml');
    client.open('file:///w/warm-up.flow-template.yaml', 'yaml', templateOf(100).text);
    await warm;
  });

  after(async () => {
    assert.equal(await client.stop(), 0);
  });

  /** Opens the template, sends `burst` edits without waiting, then one more once the last was published; the publishes of the document, in order. */
  async function typeBurst(uri: string, artifacts: number): Promise<Publish[]> {
    const { text, line, character } = templateOf(artifacts);
    const opened = client.nextPublish(uri, () => true, 60_000);
    client.open(uri, 'yaml', text);
    await opened;
    const edit = (version: number): void => {
      void client.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version },
        contentChanges: [
          { range: { start: { line, character }, end: { line, character: character + 5 } }, text: typeAt(version) },
        ],
      });
    };
    const last = 1 + burst;
    const lastPublished = client.nextPublish(uri, (publish) => publish.version === last, 60_000);
    for (let version = 2; version <= last; version++) edit(version);
    await lastPublished;
    // A publish that was still on its way would arrive before the next edit's.
    const settled = client.nextPublish(uri, (publish) => publish.version === last + 1, 60_000);
    edit(last + 1);
    await settled;
    const publishes = client.publishes.filter((publish) => publish.uri === uri);
    const versions = publishes.map((publish) => publish.version!);
    assert.deepEqual(
      versions,
      [...versions].sort((a, b) => a - b),
      `no publish follows a newer version's: ${versions.join(' ')}`,
    );
    assert.equal(
      versions.filter((version) => version === last).length,
      1,
      'the last version of the burst is published once',
    );
    for (const publish of publishes) assertMatchesItsVersion(publish);
    client.close(uri);
    return publishes;
  }

  it('checks a cheap document on every edit, each publish for its own version', async () => {
    const publishes = await typeBurst('file:///w/cheap.flow-template.yaml', 4);
    assert.deepEqual(
      publishes.map((publish) => publish.version),
      Array.from({ length: burst + 2 }, (_, index) => index + 1),
    );
  });

  it('waits for a pause on an expensive document, and still publishes the last version', async () => {
    // 2,000 lines (990 slots, within the shared limit of 1,000) take tens of milliseconds to
    // check; twenty edits sent at once arrive well within that.
    const publishes = await typeBurst('file:///w/expensive.flow-template.yaml', EXPENSIVE);
    const duringBurst = publishes.filter((publish) => publish.version! > 1 && publish.version! <= 1 + burst);
    assert.ok(duringBurst.length < burst, `${duringBurst.length} publishes for ${burst} edits sent at once`);
  });

  it('checks every edit at once when debounceMs is 0, however expensive the document', async () => {
    await client.connection.sendNotification('workspace/didChangeConfiguration', {
      settings: { complianceEvidence: { diagnostics: { debounceMs: 0 } } },
    });
    const publishes = await typeBurst('file:///w/every-edit.flow-template.yaml', EXPENSIVE);
    assert.deepEqual(
      publishes.map((publish) => publish.version),
      Array.from({ length: burst + 2 }, (_, index) => index + 1),
    );
  });
});
