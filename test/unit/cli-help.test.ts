// `cev` help and version from the built bundle: the overview, each command's help in its three
// spellings, one line per option, examples that use only real flags, unknown commands and options
// naming the closest valid one, and the exit codes (0 for help, 2 for usage errors).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serveFlags } from '../../server/commands/serveOptions.ts';

const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

function cev(...args: string[]) {
  const result = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 30_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The lines of a help section, from its heading to the next blank line. */
function section(text: string, heading: string): string[] {
  const lines = text.split('\n');
  const start = lines.indexOf(`${heading}:`);
  assert.notEqual(start, -1, `a "${heading}:" section in:\n${text}`);
  const end = lines.indexOf('', start);
  return lines.slice(start + 1, end === -1 ? undefined : end);
}

function assertOneLine(stderr: string, pattern: RegExp): void {
  const lines = stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one line expected:\n${stderr}`);
  assert.match(lines[0], pattern);
}

describe('cev help and version (dist/cli.js)', () => {
  it('--help lists every command with its summary and exits 0; help alone says the same', () => {
    const help = cev('--help');
    assert.equal(help.code, 0);
    assert.equal(help.stderr, '');
    const commands = section(help.stdout, 'Commands').map((line) => line.trim().split(/\s{2,}/)[0]);
    assert.deepEqual(commands, ['serve', 'validate', 'help <command>']);
    assert.match(help.stdout, /^cev \d+\.\d+\.\d+: /);
    assert.deepEqual(cev('-h'), help);
    assert.deepEqual(cev('help'), help);
  });

  it('with no command prints the overview on stderr and exits 2, as before', () => {
    const bare = cev();
    assert.equal(bare.code, 2);
    assert.equal(bare.stdout, '');
    assert.equal(bare.stderr, cev('--help').stdout);
  });

  it('--version and -v print the package version', () => {
    for (const flag of ['--version', '-v'])
      assert.deepEqual(cev(flag), { code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it("'cev help serve', 'cev serve --help' and 'cev serve -h' print the same help, with one line per flag", () => {
    const help = cev('help', 'serve');
    assert.equal(help.code, 0);
    assert.deepEqual(cev('serve', '--help'), help);
    assert.deepEqual(cev('serve', '-h'), help);
    assert.deepEqual(
      cev('serve', '--port', '0', '--memory', '--help'),
      help,
      '--help wins over the other flags and starts nothing',
    );
    const options = section(help.stdout, 'Options');
    const documented = options.map((line) => /^ {2}(-h, )?--([a-z-]+)/.exec(line)?.[2]);
    assert.ok(
      documented.every((flag) => flag !== undefined),
      `every option line starts with its flag:\n${options.join('\n')}`,
    );
    assert.deepEqual(documented.sort(), [...Object.keys(serveFlags), 'help'].sort());
    for (const line of options) assert.match(line, /^ {2}\S.*\S {3,}\S/, `flag and description on one line: ${line}`);
  });

  it('the examples use only real flags', () => {
    for (const [command, flags] of [
      ['serve', [...Object.keys(serveFlags)]],
      ['validate', ['kind', 'format']],
    ] as const) {
      const examples = section(cev('help', command).stdout, 'Examples').filter(
        (line) => !line.trimStart().startsWith('#'),
      );
      assert.ok(examples.length >= 2, `${command} has examples`);
      for (const example of examples) {
        assert.match(example, new RegExp(`^ {2}cev ${command}\\b`));
        for (const [, flag] of example.matchAll(/ --([a-z-]+)/g))
          assert.ok((flags as readonly string[]).includes(flag), `${example}: --${flag} is a flag of cev ${command}`);
      }
    }
  });

  it("'cev help validate' and 'cev validate --help' print the kinds, the output formats and the exit codes", () => {
    const help = cev('help', 'validate');
    assert.equal(help.code, 0);
    assert.deepEqual(cev('validate', '--help'), help);
    assert.deepEqual(
      section(help.stdout, 'Options').map((line) => line.trim().split(/\s{2,}/)[0]),
      ['--kind <kind>', '--format <format>', '-h, --help'],
    );
    assert.match(
      help.stdout,
      /--kind <kind> +read every file as this kind: flow-template, env-policy, scan-attestation, k8s-report\n/,
    );
    assert.match(help.stdout, /<file>:<line>:<col>: <severity> <code> <field>: <message>/);
    assert.match(help.stdout, /"3 files checked, 1 with errors"/);
    assert.match(help.stdout, /--format <format> +print findings as text, json, sarif \(default text\)\n/);
    assert.match(help.stdout, /^--format json: \{"files": /m);
    assert.match(help.stdout, /^--format sarif: a SARIF 2\.1\.0 log/m);
    assert.match(help.stdout, /^Exit codes: 0 .*, 1 .*, 2 .*$/m);
  });

  it('an unknown command names the closest one and exits 2', () => {
    const typo = cev('serv');
    assert.equal(typo.code, 2);
    assertOneLine(
      typo.stderr,
      /^cev: unknown command 'serv'; did you mean serve\? Run 'cev --help' for the commands\.$/,
    );
    assertOneLine(cev('help', 'valdiate').stderr, /did you mean validate\?/);
    assert.equal(cev('help', 'valdiate').code, 2);
    const far = cev('deploy');
    assert.equal(far.code, 2);
    assertOneLine(far.stderr, /^cev: unknown command 'deploy'\. Run 'cev --help'/);
  });

  it('an unknown option names the closest valid one and exits 2', () => {
    for (const [args, pattern] of [
      [
        ['serve', '--prot', '1'],
        /^cev serve: Unknown option '--prot'; did you mean --port\? Run 'cev serve --help' for the options\.$/,
      ],
      [['serve', '--api_key=secret-key-1'], /Unknown option '--api_key'; did you mean --api-key\?/],
      [['serve', '--memroy'], /did you mean --memory\?/],
      [
        ['validate', '--knd', 'flow-template', 'x.yml'],
        /^cev validate: Unknown option '--knd'; did you mean --kind\? Run 'cev validate --help'/,
      ],
      [['--versoin'], /^cev: Unknown option '--versoin'; did you mean --version\?/],
      [['--hlep'], /did you mean --help\?/],
      [
        ['validate', '--kind', 'flow-templat', 'x.yml'],
        /^cev validate: --kind must be one of .*, not 'flow-templat'; did you mean flow-template\?$/,
      ],
      [
        ['validate', '--format', 'sarf', 'x.yml'],
        /^cev validate: --format must be one of text, json, sarif, not 'sarf'; did you mean sarif\?$/,
      ],
      [['validate', '--formt=json', 'x.yml'], /^cev validate: Unknown option '--formt'; did you mean --format\?/],
      [['serve', '--zzzzzzzz'], /^cev serve: Unknown option '--zzzzzzzz'\. Run 'cev serve --help' for the options\.$/],
    ] as const) {
      const result = cev(...args);
      assert.equal(result.code, 2, args.join(' '));
      assert.equal(result.stdout, '');
      assertOneLine(result.stderr, pattern);
    }
  });
});
