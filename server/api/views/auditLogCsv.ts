// The environment audit log as CSV (spec endpoint 12), produced row batch by row batch so that an
// export of any size holds only one batch in memory. RFC 4180: CRLF line ends, a field is quoted
// when it holds a comma, a double quote, CR or LF, and quotes inside it are doubled. The last two
// columns say the compliance in the words every other face shows (shared/compliance/vocabulary.ts),
// so a row of a snapshot no policy judged reads NO POLICY, not a bare `false`.
import { listedSnapshotVerdict, runningArtifactVerdict } from '../../../shared/compliance/vocabulary.ts';
import type { EnvironmentEvent } from '../store/snapshots.ts';

/** One environment event as the audit log shows it. */
export interface AuditLogRow {
  reported_at: number;
  event_type: string;
  environment: string;
  snapshot_index: number;
  artifact_name: string;
  fingerprint: string;
  /** Flows and trails where the artifact is attested; empty when it has no provenance. */
  flow_names: readonly string[];
  trail_names: readonly string[];
  git_commit: string;
  repo_names: readonly string[];
  artifact_compliant: boolean | null;
  snapshot_compliant: boolean | null;
  description: string;
}

/** The header row, in column order; README.md documents each column. */
export const AUDIT_LOG_COLUMNS = [
  'timestamp',
  'reported_at',
  'event_type',
  'environment',
  'snapshot_index',
  'artifact_name',
  'fingerprint',
  'flow_names',
  'trail_names',
  'git_commit',
  'repo_names',
  'artifact_compliant',
  'snapshot_compliant',
  'description',
  'snapshot_compliance',
  'artifact_compliance',
] as const;

const NEEDS_QUOTES = /[",\r\n]/;
/** What a spreadsheet reads as the start of a formula (CWE-1236). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV field of text a reporter wrote, quoted only when it must be. A field that a spreadsheet
 * would run as a formula is neutralised as OWASP recommends, with a leading `'`, so opening the
 * audit log never runs what a reporter planted in an image or artifact name.
 */
export function csvField(value: string): string {
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function booleanField(value: boolean | null): string {
  return value === null ? '' : String(value);
}

// Several names in one field are separated by `;` (a comma would force quoting in every row).
function listField(values: readonly string[]): string {
  return csvField(values.join(';'));
}

/**
 * The snapshot's and the artifact's compliance as words. Every artifact of a snapshot that a
 * policy judged has a verdict, so an artifact without one tells a snapshot no policy judged.
 */
export function complianceWordsOf(row: Pick<AuditLogRow, 'artifact_compliant' | 'snapshot_compliant'>): {
  snapshot: string;
  artifact: string;
} {
  const judged = row.artifact_compliant !== null;
  return {
    snapshot: listedSnapshotVerdict(row.snapshot_compliant, judged).state,
    artifact: runningArtifactVerdict(row.artifact_compliant, judged, []).state,
  };
}

/** One data line of the audit log, CRLF included. */
export function auditLogLine(row: AuditLogRow): string {
  const words = complianceWordsOf(row);
  return (
    [
      new Date(row.reported_at * 1000).toISOString(),
      String(row.reported_at),
      csvField(row.event_type),
      csvField(row.environment),
      String(row.snapshot_index),
      csvField(row.artifact_name),
      csvField(row.fingerprint),
      listField(row.flow_names),
      listField(row.trail_names),
      csvField(row.git_commit),
      listField(row.repo_names),
      booleanField(row.artifact_compliant),
      booleanField(row.snapshot_compliant),
      csvField(row.description),
      words.snapshot,
      words.artifact,
    ].join(',') + '\r\n'
  );
}

/**
 * Reads the rows in batches: given the cursor of the last row of the previous batch (undefined at
 * the start), returns the next batch and its cursor. An empty batch ends the log.
 */
export type AuditLogBatches<Cursor> = (
  after: Cursor | undefined,
) => Promise<{ rows: AuditLogRow[]; cursor: Cursor }> | { rows: AuditLogRow[]; cursor: Cursor };

/** The CSV text in chunks: the header, then one chunk per batch of rows. */
export async function* auditLogChunks<Cursor>(nextBatch: AuditLogBatches<Cursor>): AsyncGenerator<string> {
  yield AUDIT_LOG_COLUMNS.join(',') + '\r\n';
  let cursor: Cursor | undefined;
  for (;;) {
    const batch = await nextBatch(cursor);
    if (batch.rows.length === 0) return;
    let chunk = '';
    for (const row of batch.rows) chunk += auditLogLine(row);
    yield chunk;
    cursor = batch.cursor;
  }
}

/** An environment event as the audit log shows it: each flow named once. */
export function auditLogRowOf(environmentName: string, event: EnvironmentEvent): AuditLogRow {
  return {
    reported_at: event.reportedAt,
    event_type: event.type,
    environment: environmentName,
    snapshot_index: event.snapshotIndex,
    artifact_name: event.artifactName,
    fingerprint: event.fingerprint,
    flow_names: [...new Set(event.flowNames.filter((name) => name !== ''))],
    trail_names: event.trailNames,
    git_commit: event.gitCommit,
    repo_names: event.repoNames,
    artifact_compliant: event.artifactCompliance,
    snapshot_compliant: event.snapshotCompliance,
    description: event.description,
  };
}
