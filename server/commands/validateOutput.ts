// What `cev validate` prints, in the three formats it offers: text lines for people and logs,
// JSON for scripts, and SARIF 2.1.0 for the code-scanning views of CI systems.
import { pathToFileURL } from 'node:url';
import { isAbsolute, join, sep } from 'node:path';
import { version } from '../../package.json';
import { describeFindingCode, findingCodeAnchor } from '../../shared/findingCodes.ts';
import { fieldPath, type Finding, type Severity } from '../../shared/findings.ts';
import { distDir } from '../api/distDir.ts';
import type { DocumentKind } from '../../shared/kinds.ts';
import { isLimitFinding, limits, moreText } from '../../shared/limits.ts';
import { lineIndexOf } from '../../shared/text/positions.ts';

export const outputFormats = ['text', 'json', 'sarif'] as const;
export type OutputFormat = (typeof outputFormats)[number];

export function isOutputFormat(value: string): value is OutputFormat {
  return (outputFormats as readonly string[]).includes(value);
}

/** A finding with 1-based positions; the end is exclusive, as in the editor. */
interface PlacedFinding {
  finding: Finding;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

/** One file as validated: its name as given on the command line, its kind and the findings shown, placed. */
export interface CheckedFile {
  file: string;
  kind: DocumentKind;
  /** The first limits.reportedFindings findings, and one more counting the rest. */
  findings: PlacedFinding[];
  /** Errors among all the findings, shown or not. */
  errors: number;
}

/**
 * The file as printed: the first limits.reportedFindings findings and, past them, one note placed
 * where the first one left out is, saying how many are left out. Only their places are kept, not
 * the text: files are read one after another.
 */
export function reportedFindingsOf(document: {
  file: string;
  kind: DocumentKind;
  text: string;
  findings: readonly Finding[];
}): CheckedFile {
  const { findings } = document;
  const shown = findings.slice(0, limits.reportedFindings);
  if (findings.length > shown.length) {
    const first = findings[shown.length];
    shown.push({
      code: 'limits/more-findings',
      severity: 'information',
      message: moreText(findings.length, shown.length, 'findings'),
      path: first.path,
      target: first.target,
      range: first.range,
    });
  }
  const lines = lineIndexOf(document.text);
  return {
    file: document.file,
    kind: document.kind,
    findings: shown.map((finding) => {
      const start = lines.positionAt(finding.range.start);
      const end = lines.positionAt(finding.range.end);
      return {
        finding,
        line: start.line + 1,
        column: start.character + 1,
        endLine: end.line + 1,
        endColumn: end.character + 1,
      };
    }),
    errors: findings.filter((finding) => finding.severity === 'error').length,
  };
}

/**
 * A finding's message for people: on one line, after the field it is about
 * (`scan_results.project: Field required`); a limit is about the whole document.
 */
function messageForPeople(finding: Finding): string {
  const field = isLimitFinding(finding) ? '' : fieldPath(finding.path);
  const message = finding.message.replace(/\s*\n\s*/g, ' ');
  return field === '' ? message : `${field}: ${message}`;
}

/** `3 files checked, 1 with errors`: what was checked, also when nothing was found. */
function summaryOf(files: readonly CheckedFile[]): string {
  const withErrors = files.filter((checked) => checked.errors > 0).length;
  const withWarnings = files.filter((checked) =>
    checked.findings.some(({ finding }) => finding.severity === 'warning'),
  ).length;
  return [
    `${files.length} ${files.length === 1 ? 'file' : 'files'} checked`,
    withErrors === 0 ? 'no errors' : `${withErrors} with errors`,
    ...(withWarnings === 0 ? [] : [`${withWarnings} with warnings`]),
  ].join(', ');
}

/**
 * `<file>:<line>:<col>: <severity> <code> <field>: <message>`, one line per finding (the field is
 * left out where the finding is about the whole document), then the summary line.
 */
export function textOutput(files: readonly CheckedFile[]): string {
  const out: string[] = [];
  for (const checked of files) {
    for (const { finding, line, column } of checked.findings)
      out.push(`${checked.file}:${line}:${column}: ${finding.severity} ${finding.code} ${messageForPeople(finding)}`);
  }
  out.push(summaryOf(files));
  return `${out.join('\n')}\n`;
}

/** Every file with its kind and findings, files without findings too, so a script sees what was checked. */
export function jsonOutput(files: readonly CheckedFile[]): string {
  const report = {
    files: files.map((checked) => ({
      file: checked.file,
      kind: checked.kind,
      findings: checked.findings.map(({ finding, line, column, endLine, endColumn }) => ({
        severity: finding.severity,
        code: finding.code,
        message: finding.message,
        field: fieldPath(finding.path),
        line,
        column,
        endLine,
        endColumn,
      })),
    })),
  };
  return `${JSON.stringify(report, null, 2)}\n`;
}

// SARIF has no separate hint level; an information or a hint is a note there.
const sarifLevels: Record<Severity, 'error' | 'warning' | 'note'> = {
  error: 'error',
  warning: 'warning',
  information: 'note',
  hint: 'note',
};

/**
 * A file as a SARIF artifact URI: a relative path stays relative (code-scanning views resolve it
 * against the repository root, where pipelines run), an absolute one becomes a file URL.
 */
function artifactUriOf(file: string): string {
  if (isAbsolute(file)) return pathToFileURL(file).href;
  return file.split(sep).join('/').split('/').map(encodeURIComponent).join('/');
}

/** The page that lists every finding code (docs/finding-codes.md, beside dist/ in the repository and the package). */
const findingCodesPage = pathToFileURL(join(distDir, '..', 'docs', 'finding-codes.md')).href;

/** A rule of the log: its code, what it means, and where its row of the list of codes is. */
function sarifRule(code: string) {
  const description = describeFindingCode(code);
  return {
    id: code,
    ...(description === undefined
      ? {}
      : { shortDescription: { text: description.short }, fullDescription: { text: description.full } }),
    helpUri: `${findingCodesPage}#${findingCodeAnchor(code)}`,
  };
}

/**
 * One SARIF 2.1.0 log with one run: a rule per finding code, described, and a result per finding,
 * its message after the field it is about, as the text format says it.
 */
export function sarifOutput(files: readonly CheckedFile[]): string {
  const ruleIds = [...new Set(files.flatMap((checked) => checked.findings.map(({ finding }) => finding.code)))].sort();
  const results = files.flatMap((checked) =>
    checked.findings.map(({ finding, line, column, endLine, endColumn }) => ({
      ruleId: finding.code,
      ruleIndex: ruleIds.indexOf(finding.code),
      level: sarifLevels[finding.severity],
      message: { text: messageForPeople(finding) },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: artifactUriOf(checked.file) },
            region: { startLine: line, startColumn: column, endLine, endColumn },
          },
        },
      ],
    })),
  );
  const log = {
    $schema: 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/os/schemas/sarif-schema-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'cev',
            version,
            informationUri: pathToFileURL(join(distDir, '..', 'README.md')).href,
            rules: ruleIds.map(sarifRule),
          },
        },
        // Columns count UTF-16 code units, as the editor's positions do.
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
