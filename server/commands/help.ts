// Help in the shape the field's CLIs print it: a summary, usage, one line per option, examples,
// exit codes. Each command describes itself with a CommandHelp; this file only lays it out.
import { suggestionsFor } from '../../shared/text/suggest.ts';

export interface CommandHelp {
  name: string;
  /** One line, also shown in the list of commands. */
  summary: string;
  usage: string;
  /** Said after the usage, when the options alone do not tell how the command decides. */
  details?: string;
  /** [flags with their value, what they do]. */
  options: ReadonlyArray<readonly [string, string]>;
  /** [what it does, the command line]. */
  examples: ReadonlyArray<readonly [string, string]>;
  exitCodes: string;
}

export const HELP_OPTION: readonly [string, string] = ['-h, --help', 'show this help'];

/** Whether the arguments ask for help (before a `--`, after which everything is an operand). */
export function asksForHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

function table(rows: ReadonlyArray<readonly [string, string]>): string[] {
  const width = Math.max(...rows.map(([left]) => left.length)) + 3;
  return rows.map(([left, right]) => `  ${left.padEnd(width)}${right}`);
}

export function commandHelpText(help: CommandHelp): string {
  return [
    `cev ${help.name}: ${help.summary}`,
    '',
    'Usage:',
    `  ${help.usage}`,
    ...(help.details === undefined ? [] : ['', help.details]),
    '',
    'Options:',
    ...table([...help.options, HELP_OPTION]),
    '',
    'Examples:',
    ...help.examples.flatMap(([what, line]) => [`  # ${what}`, `  ${line}`]),
    '',
    `Exit codes: ${help.exitCodes}`,
  ].join('\n');
}

export function overviewText(commands: readonly CommandHelp[], version: string): string {
  return [
    `cev ${version}: the Compliance Evidence command line`,
    '',
    'Usage:',
    '  cev <command> [options]',
    '',
    'Commands:',
    ...table([
      ...commands.map((command): [string, string] => [command.name, command.summary]),
      ['help <command>', "show a command's options and examples"],
    ]),
    '',
    'Options:',
    ...table([HELP_OPTION, ['-v, --version', 'print the version']]),
    '',
    'Examples:',
    '  # start the local API server on http://127.0.0.1:8001',
    '  cev serve',
    '  # check documents in CI, as the editor does',
    '  cev validate flow-template.yml',
    '',
    "Run 'cev help <command>' or 'cev <command> --help' for a command's options.",
  ].join('\n');
}

/** `Unknown option '--prot'; did you mean --port? ...`: the closest valid option, when one is close. `command` '' is cev itself. */
export function unknownOptionMessage(option: string, known: readonly string[], command: string): string {
  const name = option.split('=')[0];
  const [closest] = suggestionsFor(name, [...known, '--help'], 1);
  const helpCommand = command === '' ? 'cev --help' : `cev ${command} --help`;
  return `Unknown option '${name}'${closest === undefined ? '.' : `; did you mean ${closest}?`} Run '${helpCommand}' for the options.`;
}
