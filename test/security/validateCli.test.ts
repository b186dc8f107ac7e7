// `cev validate` (the built CLI) on what a pipeline may hand it (issue 23): a 50 MB file, a FIFO, a
// device and a directory are refused with a message before anything is read (a FIFO opened for
// reading would wait forever); a 15 MB report is read and placed in bounded memory; anchor bombs,
// deep nesting and documents with thousands of errors are answered at once, the first 100
// findings listed and the rest counted. Bounds, generous for a shared CPU: every run ends within
// 30 s (measured at most about 2.5 s) with a peak RSS under 600 MB (measured at most about 230 MB,
// for the 15 MB report). The figures measured are printed at the end.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, ftruncateSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { anchorsTemplate, deepTemplate, k8sReportText } from './documents.ts';
import { memoryMb } from './probes.ts';

const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const TIME_BOUND_MS = 30_000;
const PEAK_BOUND_MB = 600;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  peakMb: number;
}

/** Runs `cev validate` to its end (killed past the bound), sampling its peak RSS while it runs. */
async function validate(...args: string[]): Promise<Run> {
  const start = performance.now();
  const child = spawn(process.execPath, [cli, 'validate', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let peakMb = 0;
  const sampler = setInterval(() => {
    try {
      peakMb = Math.max(peakMb, memoryMb(child.pid!, 'VmHWM'));
    } catch {
      // Ended between two samples.
    }
  }, 10);
  const killer = setTimeout(() => child.kill('SIGKILL'), TIME_BOUND_MS);
  const code = await new Promise<number | null>((resolve) => child.once('close', (exitCode) => resolve(exitCode)));
  clearInterval(sampler);
  clearTimeout(killer);
  return { code, stdout, stderr, ms: performance.now() - start, peakMb };
}

describe('cev validate on huge files, FIFOs, devices and hostile documents (issue 23)', function () {
  this.timeout(180_000);
  let dir: string;
  const figures: string[] = [];

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'cev-validate-hostile-'));
  });
  after(() => {
    if (figures.length > 0) console.log(`      measured:\n${figures.map((line) => `        ${line}`).join('\n')}`);
    rmSync(dir, { recursive: true, force: true });
  });

  async function bounded(label: string, ...args: string[]): Promise<Run> {
    const run = await validate(...args);
    figures.push(`${label}: exit ${run.code} in ${run.ms.toFixed(0)} ms, peak RSS ${run.peakMb.toFixed(0)} MB`);
    assert.ok(run.ms < TIME_BOUND_MS, `${label}: ${run.ms.toFixed(0)} ms`);
    assert.ok(run.peakMb < PEAK_BOUND_MB, `${label}: peak RSS ${run.peakMb.toFixed(0)} MB`);
    assert.doesNotMatch(run.stdout + run.stderr, /Maximum call stack|RangeError/);
    return run;
  }

  it('refuses a 50 MB file before reading it', async () => {
    const file = join(dir, 'huge.k8s-report.json');
    // A sparse file: 50 MB long without writing 50 MB.
    const fd = openSync(file, 'w');
    ftruncateSync(fd, 50 * 1024 * 1024);
    closeSync(fd);
    const run = await bounded('50 MB file', file);
    assert.equal(run.code, 2);
    assert.equal(
      run.stderr,
      `cev validate: cannot read ${file}: it is 50 MB, over the limit of 16 MB for any document (256 KB for templates and policies)\n`,
    );
    assert.ok(run.peakMb < 150, `the file was not read: peak RSS ${run.peakMb.toFixed(0)} MB`);
  });

  it('refuses a FIFO without waiting for a writer, a device and a directory', async () => {
    const fifo = join(dir, 'pipe.flow-template.yaml');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0, 'mkfifo');
    for (const [label, file, what] of [
      ['FIFO', fifo, 'a FIFO (named pipe)'],
      ['device', '/dev/zero', 'a device'],
      ['directory', dir, 'a directory'],
    ] as const) {
      const run = await bounded(label, '--kind', 'flow-template', file);
      assert.equal(run.code, 2, label);
      assert.equal(run.stderr, `cev validate: cannot read ${file}: it is ${what}; give a regular file\n`);
    }
  });

  it('reads a 15 MB report in bounded memory and places its one finding', async () => {
    const file = join(dir, 'cluster.k8s-report.json');
    writeFileSync(file, k8sReportText(60_000, 5));
    const run = await bounded('15 MB report', file);
    assert.equal(run.code, 1);
    assert.equal(
      run.stdout,
      `${file}:49:18: error report/wrong-type artifacts[5].podName: Input should be a valid string\n1 file checked, 1 with errors\n`,
    );
  });

  it('answers anchors, aliases and deep nesting at once, in every format', async () => {
    const anchors = join(dir, 'anchors.flow-template.yaml');
    writeFileSync(anchors, anchorsTemplate(20_000));
    const aliases = join(dir, 'aliases.flow-template.yaml');
    writeFileSync(aliases, anchorsTemplate(3000));
    const deep = join(dir, 'deep.flow-template.yaml');
    writeFileSync(deep, deepTemplate(10_000));
    const text = await bounded('anchors, aliases, deep (text)', anchors, aliases, deep);
    assert.equal(text.code, 1);
    const lines = text.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 4, text.stdout);
    assert.equal(lines[3], '3 files checked, 3 with errors');
    assert.match(lines[0], /anchors\.flow-template\.yaml:1:1: error limits\/too-large This flow template is 1\.\d MB/);
    assert.match(
      lines[1],
      /aliases\.flow-template\.yaml:\d+:\d+: error limits\/too-many-aliases The document uses 3,000 aliases/,
    );
    assert.match(
      lines[2],
      /deep\.flow-template\.yaml:2:\d+: error limits\/too-deep The document is nested too deeply \(limit 100 levels\)$/,
    );
    const sarif = await bounded('deep (SARIF)', '--format', 'sarif', deep);
    const log = JSON.parse(sarif.stdout) as {
      runs: Array<{ results: Array<{ ruleId: string; message: { text: string } }> }>;
    };
    assert.deepEqual(
      log.runs[0].results.map((result) => [result.ruleId, result.message.text]),
      [['limits/too-deep', 'The document is nested too deeply (limit 100 levels)']],
    );
  });

  it('lists the first 100 findings of a document with thousands and counts the rest', async () => {
    const file = join(dir, 'keys.flow-template.yaml');
    const keys = Array.from({ length: 20_000 }, (_, i) => `  k${i}: 1`).join('\n');
    writeFileSync(file, `version: 1\ntrail:\n${keys}\n`);
    const run = await bounded('20,000 unknown keys', file);
    assert.equal(run.code, 1);
    const lines = run.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 102);
    assert.equal(lines[101], '1 file checked, 1 with errors');
    assert.match(
      lines[100],
      /:103:3: information limits\/more-findings … and 19,900 more findings \(the first 100 are listed\)$/,
    );
    const json = JSON.parse((await bounded('20,000 unknown keys (JSON)', '--format', 'json', file)).stdout) as {
      files: Array<{ findings: unknown[] }>;
    };
    assert.equal(json.files[0].findings.length, 101);
  });
});
