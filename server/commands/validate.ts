// `cev validate`: the editor's verdict in batch, for pipelines. By default one line per finding,
// `<file>:<line>:<col>: <severity> <code> <field>: <message>` (1-based), then a summary line
// (`3 files checked, 1 with errors`); JSON or SARIF on request
// (validateOutput.ts). Exit 1 when any error was found, 0 otherwise, 2 on usage errors, whatever
// the format. The rules all live in shared/; this only reads files and prints.
import { defaultKindGlobs, documentKinds, isDocumentKind, kindOf } from '../../shared/kinds.ts';
import type { DocumentKind } from '../../shared/kinds.ts';
import { suggestionsFor } from '../../shared/text/suggest.ts';
import { validateText } from '../../shared/validate.ts';
import { asksForHelp, commandHelpText, unknownOptionMessage, type CommandHelp } from './help.ts';
import { UsageError } from '../api/usageError.ts';
import { documentTextOf, UnreadableFile } from './validateInput.ts';
import {
  isOutputFormat,
  jsonOutput,
  outputFormats,
  reportedFindingsOf,
  sarifOutput,
  textOutput,
  type CheckedFile,
  type OutputFormat,
} from './validateOutput.ts';

// The names listed are the globs kindOf matches, so the help cannot drift from the rule.
const fileNames = documentKinds
  .flatMap((kind) => defaultKindGlobs[kind].map((glob) => glob.replace(/^\*\*\//, '')))
  .join(', ');

export const validateHelp: CommandHelp = {
  name: 'validate',
  summary: 'check flow templates, environment policies, scan attestations and K8S reports as the editor does',
  usage: 'cev validate [--kind <kind>] [--format <format>] <file>...',
  details: `By default one line per finding: <file>:<line>:<col>: <severity> <code> <field>: <message>
(1-based; no field where the finding is about the whole document), then one line saying how many
files were checked and how many have errors, e.g. "3 files checked, 1 with errors".
--format json: {"files": [{file, kind, findings: [{severity, code, message, field, line, column,
endLine, endColumn}]}]}, every file given, messages as the server words them, for scripts.
--format sarif: a SARIF 2.1.0 log (a rule per code, described and linked to its row of
docs/finding-codes.md; a result per finding) for code-scanning views.
Every format exits with the same code.
The kind comes from the file name (${fileNames}),
a first-line '# cev: <kind>' modeline or a policy's _schema; --kind overrides them for every file.`,
  options: [
    [`--kind <kind>`, `read every file as this kind: ${documentKinds.join(', ')}`],
    [`--format <format>`, `print findings as ${outputFormats.join(', ')} (default text)`],
  ],
  examples: [
    [
      'check every template and policy of a repository',
      'cev validate templates/*flow-template*.yml policies/*env-policy*.yml',
    ],
    ['check a file whose name does not tell its kind', 'cev validate --kind scan-attestation build/scan.json'],
    [
      'write findings for a code-scanning upload',
      'cev validate --format sarif templates/*flow-template*.yml > cev.sarif',
    ],
  ],
  exitCodes:
    '0 no errors (warnings allowed), 1 an error was found, 2 bad flags, or a file unreadable or of a kind that cannot be told.',
};

interface ValidateArgs {
  kind?: DocumentKind;
  format: OutputFormat;
  files: string[];
}

function parseArgs(args: string[]): ValidateArgs {
  let kind: DocumentKind | undefined;
  let format: OutputFormat = 'text';
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--kind' || arg.startsWith('--kind=')) {
      const value = arg === '--kind' ? args[++i] : arg.slice('--kind='.length);
      if (value === undefined || !isDocumentKind(value)) {
        const [closest] = value === undefined ? [] : suggestionsFor(value, documentKinds, 1);
        throw new UsageError(
          `--kind must be one of ${documentKinds.join(', ')}${value === undefined ? '' : `, not '${value}'`}${closest === undefined ? '' : `; did you mean ${closest}?`}`,
        );
      }
      kind = value;
    } else if (arg === '--format' || arg.startsWith('--format=')) {
      const value = arg === '--format' ? args[++i] : arg.slice('--format='.length);
      if (value === undefined || !isOutputFormat(value)) {
        const [closest] = value === undefined ? [] : suggestionsFor(value, outputFormats, 1);
        throw new UsageError(
          `--format must be one of ${outputFormats.join(', ')}${value === undefined ? '' : `, not '${value}'`}${closest === undefined ? '' : `; did you mean ${closest}?`}`,
        );
      }
      format = value;
    } else if (arg === '--') {
      files.push(...args.slice(i + 1));
      break;
    } else if (arg.startsWith('-') && arg !== '-') {
      throw new UsageError(unknownOptionMessage(arg, ['--kind', '--format'], 'validate'));
    } else {
      files.push(arg);
    }
  }
  if (files.length === 0) throw new UsageError("no files given; run 'cev validate --help' for the options");
  return { kind, format, files };
}

const printers: Record<OutputFormat, (files: readonly CheckedFile[]) => string> = {
  text: textOutput,
  json: jsonOutput,
  sarif: sarifOutput,
};

export async function runValidate(args: string[]): Promise<number> {
  if (asksForHelp(args)) {
    console.log(commandHelpText(validateHelp));
    return 0;
  }
  let parsed: ValidateArgs;
  try {
    parsed = parseArgs(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`cev validate: ${error.message}`);
    return 2;
  }

  // One file at a time: only one document's text and value are held at once, and its findings.
  const checked: CheckedFile[] = [];
  for (const file of parsed.files) {
    let text: string;
    try {
      text = await documentTextOf(file);
    } catch (error) {
      if (!(error instanceof UnreadableFile)) throw error;
      console.error(`cev validate: ${error.message}`);
      return 2;
    }
    const kind = parsed.kind ?? kindOf(file, text);
    if (kind === undefined) {
      console.error(
        `cev validate: cannot tell what kind of document ${file} is; name it like *flow-template*.yaml or pass --kind`,
      );
      return 2;
    }
    checked.push(reportedFindingsOf({ file, kind, text, findings: validateText(kind, text).findings }));
  }
  process.stdout.write(printers[parsed.format](checked));
  return checked.some((file) => file.errors > 0) ? 1 : 0;
}
