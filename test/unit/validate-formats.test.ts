// `cev validate --format json|sarif` from the built bundle, against the text format on the golden
// fixtures: the same findings at the same positions, the same exit codes. The SARIF log is checked
// against the SARIF 2.1.0 JSON schema as a package ships it (no network at test time); that
// schema is JSON Schema draft-04, hence ajv's draft-04 class.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Ajv04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { fixturesDir, loadFixtures } from './golden.ts';

const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const require = createRequire(import.meta.url);
const sarifSchema = JSON.parse(
  readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8'),
) as Record<string, unknown>;

function validate(cwd: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [cli, 'validate', ...args], { cwd, encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: {
    physicalLocation: {
      artifactLocation: { uri: string };
      region: { startLine: number; startColumn: number; endLine: number; endColumn: number };
    };
  }[];
}

interface SarifRule {
  id: string;
  shortDescription?: { text: string };
  fullDescription?: { text: string };
  helpUri?: string;
}

interface SarifLog {
  version: string;
  runs: { tool: { driver: { name: string; informationUri?: string; rules: SarifRule[] } }; results: SarifResult[] }[];
}

interface JsonReport {
  files: {
    file: string;
    kind: string;
    findings: {
      severity: string;
      code: string;
      message: string;
      field: string;
      line: number;
      column: number;
      endLine: number;
      endColumn: number;
    }[];
  }[];
}

const levelOf: Record<string, string> = { error: 'error', warning: 'warning', information: 'note', hint: 'note' };

/** The text format's finding lines as `<file>:<line>:<col>: <severity> <code>`, sorted (the summary line left out). */
function textFindings(stdout: string): string[] {
  const rows = stdout.trimEnd().split('\n');
  assert.match(rows.pop()!, /^\d+ files? checked, /);
  return rows.map((row) => /^(.+?:\d+:\d+: \S+ \S+) /.exec(row)![1]).sort();
}

describe('cev validate --format json|sarif (dist/cli.js)', function () {
  this.timeout(60_000);
  const fixtures = loadFixtures();
  // Names relative to the working directory, as a pipeline passes them.
  const names = fixtures.map((fixture) => relative(fixturesDir, fixture.path));
  // The schema's language pattern holds a stray ']', a literal in JSON Schema's own regular
  // expressions (ECMA-262 without the unicode flag) but an error with it.
  const sarifValidator = new Ajv04({ allErrors: true, unicodeRegExp: false });
  addFormats(sarifValidator);
  const isSarif = sarifValidator.compile(sarifSchema);

  it('prints a SARIF 2.1.0 log the schema accepts, with one result per finding where the text format puts it', () => {
    const text = validate(fixturesDir, ...names);
    const sarif = validate(fixturesDir, '--format', 'sarif', ...names);
    assert.equal(sarif.code, text.code);
    assert.equal(sarif.code, 1);
    const log = JSON.parse(sarif.stdout) as SarifLog;
    assert.ok(isSarif(log), JSON.stringify(isSarif.errors, null, 2));
    assert.equal(log.version, '2.1.0');
    assert.equal(log.runs.length, 1);
    const [run] = log.runs;
    assert.equal(run.tool.driver.name, 'cev');
    const rules = run.tool.driver.rules.map((rule) => rule.id);
    assert.deepEqual(rules, [...new Set(rules)].sort(), 'one rule per code');
    for (const result of run.results) assert.equal(rules[result.ruleIndex], result.ruleId);
    const fromSarif = run.results
      .map((result) => {
        const { artifactLocation, region } = result.locations[0].physicalLocation;
        return `${decodeURIComponent(artifactLocation.uri)}:${region.startLine}:${region.startColumn}: ${result.level} ${result.ruleId}`;
      })
      .sort();
    const fromText = textFindings(text.stdout)
      .map((row) =>
        row.replace(/: (\S+) (\S+)$/, (_, severity: string, code: string) => `: ${levelOf[severity]} ${code}`),
      )
      .sort();
    assert.ok(fromText.length > 50, `${fromText.length} findings in the fixtures`);
    assert.deepEqual(fromSarif, fromText);
  });

  it('describes each rule, links it to its row of the page of codes, and says what the tool is', () => {
    const log = JSON.parse(validate(fixturesDir, '--format', 'sarif', ...names).stdout) as SarifLog;
    const { driver } = log.runs[0].tool;
    assert.ok(driver.informationUri !== undefined && existsSync(fileURLToPath(driver.informationUri)), 'the README');
    const page = readFileSync(fileURLToPath(new URL('../../docs/finding-codes.md', import.meta.url)), 'utf8');
    assert.ok(driver.rules.length > 20);
    for (const rule of driver.rules) {
      assert.ok((rule.shortDescription?.text ?? '').length > 5, rule.id);
      assert.ok((rule.fullDescription?.text ?? '').length > (rule.shortDescription?.text ?? '').length, rule.id);
      const help = new URL(rule.helpUri!);
      assert.equal(fileURLToPath(help), fileURLToPath(new URL('../../docs/finding-codes.md', import.meta.url)));
      assert.ok(page.includes(`<a id="${help.hash.slice(1)}"></a>`), `${rule.id}: ${rule.helpUri}`);
    }
    const missing = driver.rules.find((rule) => rule.id === 'scan/missing-field')!;
    assert.equal(missing.shortDescription!.text, 'A required field is missing');
    assert.match(missing.fullDescription!.text, /scan attestation/);
  });

  it('words each result as the text format does, the field first; JSON keeps the message as the server sends it', () => {
    const sarif = JSON.parse(validate(fixturesDir, '--format', 'sarif', ...names).stdout) as SarifLog;
    const json = JSON.parse(validate(fixturesDir, '--format', 'json', ...names).stdout) as JsonReport;
    const required = sarif.runs[0].results.filter((result) => result.ruleId.endsWith('/missing-field'));
    assert.ok(required.length > 3);
    for (const result of required) assert.match(result.message.text, /^[\w.[\]]+: Field required/);
    const fromJson = json.files
      .flatMap((file) => file.findings)
      .filter((finding) => finding.code === 'scan/missing-field');
    assert.ok(fromJson.length > 0);
    for (const finding of fromJson) {
      assert.equal(finding.message, 'Field required', "the service's own text, for scripts comparing with it");
      assert.notEqual(finding.field, '');
    }
  });

  it('is a schema the validator holds output to: a malformed log is rejected', () => {
    const log = JSON.parse(validate(fixturesDir, '--format', 'sarif', ...names).stdout) as SarifLog;
    log.runs[0].results[0].level = 'fatal';
    assert.equal(isSarif(log), false);
    assert.equal(isSarif({ version: '2.1.0' }), false, 'runs is required');
  });

  it('names a relative file by a relative URI and an absolute one by a file URL', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cev-sarif-'));
    try {
      writeFileSync(join(dir, 'my flow-template.yaml'), 'version: 2\n');
      const relativeRun = JSON.parse(validate(dir, '--format', 'sarif', 'my flow-template.yaml').stdout) as SarifLog;
      assert.ok(isSarif(relativeRun));
      const location = relativeRun.runs[0].results[0].locations[0].physicalLocation;
      assert.equal(location.artifactLocation.uri, 'my%20flow-template.yaml');
      assert.deepEqual(location.region, { startLine: 1, startColumn: 10, endLine: 1, endColumn: 11 });
      const absolute = join(dir, 'my flow-template.yaml');
      const absoluteRun = JSON.parse(validate(tmpdir(), '--format=sarif', absolute).stdout) as SarifLog;
      assert.equal(
        absoluteRun.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri,
        pathToFileURL(absolute).href,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('prints JSON with every file, its kind and the text format findings with their messages and fields', () => {
    const text = validate(fixturesDir, ...names);
    const json = validate(fixturesDir, '--format', 'json', ...names);
    assert.equal(json.code, text.code);
    const report = JSON.parse(json.stdout) as JsonReport;
    assert.deepEqual(
      report.files.map((file) => file.file),
      names,
      'every file, in the order given, findings or not',
    );
    assert.ok(
      report.files.every((file) =>
        ['flow-template', 'env-policy', 'scan-attestation', 'k8s-report'].includes(file.kind),
      ),
    );
    const fromJson = report.files
      .flatMap((file) =>
        file.findings.map(
          (finding) => `${file.file}:${finding.line}:${finding.column}: ${finding.severity} ${finding.code}`,
        ),
      )
      .sort();
    assert.deepEqual(fromJson, textFindings(text.stdout));
    const messages = report.files.flatMap((file) =>
      file.findings.map((finding) => finding.message.replace(/\s*\n\s*/g, ' ')),
    );
    for (const message of messages) assert.ok(text.stdout.includes(message), message);
    const scan = report.files
      .flatMap((file) => file.findings.map((finding) => ({ file: file.file, ...finding })))
      .find((finding) => finding.code === 'scan/missing-field')!;
    assert.ok(
      text.stdout.includes(
        `${scan.file}:${scan.line}:${scan.column}: error scan/missing-field ${scan.field}: Field required\n`,
      ),
      'the text format puts the field before the message',
    );
    const wrongType = report.files.find((file) => file.file.endsWith('attestations-not-a-list.flow-template.yaml'))!;
    assert.deepEqual(
      wrongType.findings.map((finding) => [finding.field, finding.line, finding.endLine]),
      [['trail.attestations', 4, 4]],
    );
  });

  it('keeps the exit codes: 0 for valid documents in every format, 2 for a bad format, text unchanged by --format text', () => {
    const valid = fixtures
      .filter((fixture) => fixture.want.length === 0)
      .map((fixture) => relative(fixturesDir, fixture.path));
    for (const format of ['text', 'json', 'sarif'])
      assert.equal(validate(fixturesDir, '--format', format, ...valid).code, 0, format);
    assert.deepEqual(validate(fixturesDir, '--format', 'text', ...names), validate(fixturesDir, ...names));
    const bad = validate(fixturesDir, '--format', 'xml', names[0]);
    assert.equal(bad.code, 2);
    assert.equal(bad.stdout, '');
    assert.match(bad.stderr, /^cev validate: --format must be one of text, json, sarif, not 'xml'/);
  });
});
