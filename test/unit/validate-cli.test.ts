// `cev validate` from the built bundle: verdicts, exit codes and 1-based positions on the fixtures.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadFixtures } from './golden.ts';

const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

function validate(...args: string[]) {
  const result = spawnSync(process.execPath, [cli, 'validate', ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('cev validate (dist/cli.js)', () => {
  const fixtures = loadFixtures();

  it('prints every expected finding at its 1-based line, then the summary, and nothing else', () => {
    const { code, stdout } = validate(...fixtures.map((fixture) => fixture.path));
    assert.equal(code, 1);
    const got = new Map<string, string[]>();
    const rows = stdout.trimEnd().split('\n');
    assert.match(rows.pop()!, new RegExp(`^${fixtures.length} files checked, \\d+ with errors, \\d+ with warnings$`));
    for (const row of rows) {
      const match = /^(.+):(\d+):(\d+): (error|warning|information|hint) (\S+) (.+)$/.exec(row);
      assert.ok(match, `malformed line: ${row}`);
      const [, file, line, column, , findingCode] = match;
      assert.ok(Number(column) >= 1);
      got.set(file, [...(got.get(file) ?? []), `${line} ${findingCode}`]);
    }
    for (const fixture of fixtures) assert.deepEqual((got.get(fixture.path) ?? []).sort(), fixture.want, fixture.name);
  });

  it('exits 0 on valid documents, even with warnings', () => {
    // Fixtures without expected findings, plus the one whose only finding is a warning.
    const valid = fixtures.filter((fixture) => fixture.want.length === 0 || fixture.name.includes('warning'));
    assert.ok(valid.length >= 20);
    const { code, stdout } = validate(...valid.map((fixture) => fixture.path));
    assert.equal(code, 0, stdout);
    assert.match(stdout, /valid-custom-tag-warning\.flow-template\.yaml:4:13: warning yaml\/syntax /);
  });

  it('exits 1 with the exact line for one error', () => {
    const fixture = fixtures.find(
      (candidate) => candidate.name === 'scan-attestation/targets-without-commit.scan-attestation.json',
    )!;
    const { code, stdout } = validate(fixture.path);
    assert.equal(code, 1);
    assert.equal(
      stdout,
      `${fixture.path}:8:3: error scan/target-artifacts-without-commit target_artifacts: An attestation for target_artifacts requires at least one of: artifact_fingerprint or git_commit_info. Add git_commit_info (or artifact_fingerprint).\n` +
        '1 file checked, 1 with errors\n',
    );
  });

  it('names the field of each finding, and ends with what was checked, also when nothing was found', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cev-validate-'));
    try {
      // Two fields missing from one object: one place, two lines that tell them apart.
      writeFileSync(
        join(dir, 'build.scan-attestation.json'),
        JSON.stringify({ attestation_name: 'scan', scan_results: { tool: 'scanner' } }, null, 2),
      );
      writeFileSync(join(dir, 'a.flow-template.yml'), 'version: 1\ntrail:\n  artifacts:\n    - name: app\n');
      writeFileSync(join(dir, 'b.flow-template.yml'), 'version: 1\n');
      const broken = spawnSync(
        process.execPath,
        [cli, 'validate', 'build.scan-attestation.json', 'a.flow-template.yml', 'b.flow-template.yml'],
        { cwd: dir, encoding: 'utf8', timeout: 60_000 },
      );
      assert.equal(broken.status, 1);
      const lines = broken.stdout.trimEnd().split('\n');
      const missing = lines.filter((line) => line.includes('scan/missing-field'));
      assert.ok(missing.length >= 2, broken.stdout);
      assert.equal(new Set(missing).size, missing.length, `each line names its field:\n${broken.stdout}`);
      assert.ok(
        missing.includes(
          'build.scan-attestation.json:3:3: error scan/missing-field scan_results.project: Field required',
        ),
        broken.stdout,
      );
      assert.equal(lines.at(-1), '3 files checked, 1 with errors');
      const clean = spawnSync(process.execPath, [cli, 'validate', 'a.flow-template.yml', 'b.flow-template.yml'], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 60_000,
      });
      assert.deepEqual([clean.status, clean.stdout], [0, '2 files checked, no errors\n']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes the kind from --kind, a modeline or a policy _schema when the name says nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cev-validate-'));
    try {
      const plain = join(dir, 'release.yaml');
      writeFileSync(plain, 'version: 2\n');
      assert.match(
        validate('--kind', 'flow-template', plain).stdout,
        /release\.yaml:1:10: error template\/bad-version/,
      );
      assert.match(validate(`--kind=env-policy`, plain).stdout, /release\.yaml:1:1: error policy\/missing-schema/);
      const modeline = join(dir, 'modeline.yaml');
      writeFileSync(modeline, '# cev: flow-template\nversion: 1\nextra: 1\n');
      assert.match(validate(modeline).stdout, /modeline\.yaml:3:1: error template\/unknown-key/);
      const policy = join(dir, 'prod.yml');
      writeFileSync(policy, '_schema: https://example.org/policy/v1\nartifacts:\n  attestations:\n    - type: "*"\n');
      assert.match(validate(policy).stdout, /prod\.yml:4:13: error policy\/any-name-any-type/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('exits 2 on usage errors', () => {
    assert.equal(validate().code, 2);
    assert.equal(validate('--kind', 'nope', 'x.yaml').code, 2);
    assert.equal(validate('--frobnicate', 'x.yaml').code, 2);
    assert.equal(validate('does-not-exist.flow-template.yaml').code, 2);
    const unknown = validate(fileURLToPath(new URL('./golden.ts', import.meta.url)));
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /cannot tell what kind of document/);
  });
});
