// The built language server (over stdio, as the editor starts it) on pathological documents
// (issue 23): each gets its diagnostic in bounded time and memory, saying which shared limit it is
// over (shared/limits.ts), and once they are closed the process gives its memory back. Bounds,
// generous for a shared CPU: a publish within 30 s (measured at most about 2.5 s), a peak RSS of
// at most 1 GB (measured about 400 MB, a 60 MB document and a 15 MB report included), and after
// closing, an RSS within 120 MB of what the process held before (measured 87 MB → 412 → 151).
// The figures measured are printed at the end.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { startClient, type LspClient } from '../language/lspClient.ts';
import { anchorsTemplate, deepTemplate, k8sReportText, slotsTemplate } from './documents.ts';
import { memoryMb } from './probes.ts';

const PUBLISH_BOUND_MS = 30_000;
const PEAK_BOUND_MB = 1024;
const RELEASE_BOUND_MB = 120;

describe('language server on pathological documents (issue 23)', function () {
  this.timeout(300_000);
  let client: LspClient;
  let pid: number;
  const figures: string[] = [];

  before(async () => {
    client = startClient();
    await client.initialize();
    pid = client.process.pid!;
    const warm = client.nextPublish('file:///w/warm-up.flow-template.yaml');
    client.open('file:///w/warm-up.flow-template.yaml', 'yaml', slotsTemplate(10));
    await warm;
  });
  after(async () => {
    if (figures.length > 0) console.log(`      measured:\n${figures.map((line) => `        ${line}`).join('\n')}`);
    assert.equal(await client.stop(), 0);
  });

  it('reports each limit in bounded time and memory, and gives the memory back once they close', async () => {
    const baseline = memoryMb(pid);
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    const cases: Array<[uri: string, language: string, text: string, message: RegExp]> = [
      [
        'file:///w/huge.flow-template.yaml',
        'yaml',
        slotsTemplate(1_600_000),
        /^This flow template is [\d.]+ MB, over the limit of 256 KB/,
      ],
      [
        'file:///w/anchors.flow-template.yaml',
        'yaml',
        anchorsTemplate(20_000),
        /^This flow template is 1\.\d MB, over the limit of 256 KB/,
      ],
      [
        'file:///w/aliases.flow-template.yaml',
        'yaml',
        anchorsTemplate(3000),
        /^The document uses 3,000 aliases \(\*name\), over the limit of 100/,
      ],
      [
        'file:///w/deep.flow-template.yaml',
        'yaml',
        deepTemplate(10_000),
        /^The document is nested too deeply \(limit 100 levels\)$/,
      ],
      ['file:///w/read.k8s-report.json', 'json', k8sReportText(60_000, 0), /^Input should be a valid string/],
      [
        'file:///w/too-large.k8s-report.json',
        'json',
        k8sReportText(80_000, 0),
        /^This K8S report is [\d.]+ MB, over the limit of 16 MB/,
      ],
    ];
    for (const [uri, language, text, message] of cases) {
      const published = client.nextPublish(uri, () => true, PUBLISH_BOUND_MS);
      const start = performance.now();
      client.open(uri, language, text);
      const { diagnostics } = await published;
      const ms = performance.now() - start;
      // The outline and folding of a document too large to read are empty, and quick.
      await client.request('textDocument/documentSymbol', { textDocument: { uri } }, PUBLISH_BOUND_MS);
      await client.request('textDocument/foldingRange', { textDocument: { uri } }, PUBLISH_BOUND_MS);
      figures.push(
        `${uri.slice('file:///w/'.length)} (${(text.length / 1024 / 1024).toFixed(1)} MB): diagnostics in ${ms.toFixed(0)} ms, RSS ${memoryMb(pid).toFixed(0)} MB`,
      );
      assert.equal(diagnostics.length, 1, `${uri}: ${JSON.stringify(diagnostics.slice(0, 3))}`);
      assert.match(diagnostics[0].message, message, uri);
      assert.doesNotMatch(diagnostics[0].message, /Maximum call stack/);
    }
    const peak = memoryMb(pid, 'VmHWM');
    for (const [uri] of cases) client.close(uri);
    const deadline = Date.now() + 30_000;
    let released = memoryMb(pid);
    while (released > baseline + RELEASE_BOUND_MB && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      released = memoryMb(pid);
    }
    figures.push(
      `RSS ${baseline.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB, ${released.toFixed(0)} MB after closing`,
    );
    assert.ok(peak < PEAK_BOUND_MB, `peak RSS ${peak.toFixed(0)} MB`);
    assert.ok(
      released <= baseline + RELEASE_BOUND_MB,
      `RSS ${released.toFixed(0)} MB after closing, ${baseline.toFixed(0)} MB before`,
    );
    // The same process goes on checking documents.
    const next = client.nextPublish('file:///w/after.flow-template.yaml');
    client.open('file:///w/after.flow-template.yaml', 'yaml', 'version: 2\n');
    assert.deepEqual(
      (await next).diagnostics.map((diagnostic) => diagnostic.code),
      ['template/bad-version'],
    );
    assert.equal(client.process.pid, pid);
  });
});
