// An attestation as display data (design §10): its type's data as tables and figures (quality
// gate conditions, test totals, pull-request approvals, custom data), annotations, external URLs
// and evidence. Input is the API's Attestation object.

import { attestationVerdict, type Verdict } from '../compliance/vocabulary.ts';
import {
  externalRef,
  externalUrlsOf,
  isRecord,
  prettyJson,
  textOf,
  timeOf,
  type ViewRef,
  type ViewUrl,
} from './links.ts';

/** A table of text cells; the renderer marks the first row as headers. */
export interface TableDisplay {
  caption: string;
  columns: string[];
  rows: string[][];
}

export interface AttestationDisplay {
  title: string;
  type: string;
  status: Verdict;
  flow: string;
  trail: string;
  trailRef: ViewRef;
  createdAt: string | null;
  reportedBy: string;
  description: string;
  /** The type's one-line reading, e.g. "12 tests, 1 failure, 0 errors". */
  summary: string;
  tables: TableDisplay[];
  /** Data of the type with no table of its own, as pretty-printed JSON. */
  data: string | null;
  artifact: ViewRef | null;
  origin: ViewUrl | null;
  externalUrls: ViewUrl[];
  annotations: string | null;
  userData: string | null;
  evidence: { name: string; ref: ViewRef } | null;
}

export function attestationDisplay(attestation: Record<string, unknown>): AttestationDisplay {
  const flow = textOf(attestation.flow_name);
  const trail = textOf(attestation.trail_name);
  const id = textOf(attestation.attestation_id);
  const type = textOf(attestation.attestation_type);
  const fingerprint = typeof attestation.artifact_fingerprint === 'string' ? attestation.artifact_fingerprint : null;
  const evidencePath = typeof attestation.evidence_archive_path === 'string' ? attestation.evidence_archive_path : null;
  const origin =
    typeof attestation.origin_url === 'string' && attestation.origin_url !== '' ? attestation.origin_url : null;
  return {
    title: textOf(attestation.attestation_name),
    type,
    status: attestationVerdict(attestation.is_compliant === true),
    flow,
    trail,
    trailRef: { kind: 'trail', flow, trail },
    createdAt: timeOf(attestation.created_at),
    reportedBy: textOf(attestation.reported_by),
    description: textOf(attestation.description),
    ...typeData(type, attestation),
    artifact: fingerprint === null ? null : { kind: 'artifact', flow, fingerprint, trail },
    origin: origin === null ? null : { label: 'origin', url: origin, ref: externalRef(origin) },
    externalUrls: externalUrlsOf(attestation.external_urls),
    annotations: prettyJson(attestation.annotations),
    userData: prettyJson(attestation.user_data),
    evidence:
      evidencePath === null
        ? null
        : {
            name: evidencePath.split('/').pop() ?? evidencePath,
            ref: { kind: 'evidence', flow, trail, attestationId: id },
          },
  };
}

function typeData(
  type: string,
  body: Record<string, unknown>,
): Pick<AttestationDisplay, 'summary' | 'tables' | 'data'> {
  if (type === 'scan' && isRecord(body.scan_results)) return scanData(body.scan_results);
  if (type === 'junit' && Array.isArray(body.junit_results)) return junitData(body.junit_results.filter(isRecord));
  if (type === 'pull_request' && Array.isArray(body.pull_requests))
    return pullRequestData(body.pull_requests.filter(isRecord));
  if (type === 'override')
    return {
      summary: `Compliance set to ${body.new_compliance_status === true ? 'compliant' : 'non-compliant'}`,
      tables: [],
      data: null,
    };
  if (isRecord(body.attestation_data)) {
    const summary = typeof body.attestation_data.summary === 'string' ? body.attestation_data.summary : '';
    return { summary, tables: [], data: prettyJson(body.attestation_data) };
  }
  return { summary: '', tables: [], data: null };
}

function scanData(results: Record<string, unknown>): Pick<AttestationDisplay, 'summary' | 'tables' | 'data'> {
  const gate = isRecord(results.qualityGate) ? results.qualityGate : {};
  const conditions = Array.isArray(gate.conditions) ? gate.conditions.filter(isRecord) : [];
  return {
    summary: `Quality gate ${textOf(gate.status) || 'not reported'}`,
    tables: [
      {
        caption: 'Quality gate conditions',
        columns: ['Metric', 'Status', 'Actual', 'Comparator', 'Threshold'],
        rows: conditions.map((condition) =>
          [
            condition.metric,
            condition.status,
            condition.actualValue ?? condition.value,
            condition.comparator ?? condition.operator,
            condition.errorThreshold,
          ].map(textOf),
        ),
      },
    ],
    data: null,
  };
}

function junitData(suites: Record<string, unknown>[]): Pick<AttestationDisplay, 'summary' | 'tables' | 'data'> {
  const total = (key: string): number =>
    suites.reduce((sum, suite) => sum + (typeof suite[key] === 'number' ? suite[key] : 0), 0);
  const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;
  return {
    summary: `${plural(total('tests'), 'test')}, ${plural(total('failures'), 'failure')}, ${plural(total('errors'), 'error')}, ${total('skipped')} skipped`,
    tables: [
      {
        caption: 'Test suites',
        columns: ['Suite', 'Tests', 'Failures', 'Errors', 'Skipped', 'Duration (s)'],
        rows: suites.map((suite) =>
          [suite.name, suite.tests, suite.failures, suite.errors, suite.skipped, suite.duration].map(textOf),
        ),
      },
    ],
    data: null,
  };
}

function pullRequestData(
  pullRequests: Record<string, unknown>[],
): Pick<AttestationDisplay, 'summary' | 'tables' | 'data'> {
  // The older form lists approvers as bare user names.
  const approver = (entry: unknown): string =>
    isRecord(entry)
      ? `${textOf(entry.username)}${entry.state === undefined ? '' : ` (${textOf(entry.state)})`}`
      : textOf(entry);
  return {
    summary: `${pullRequests.length} pull request${pullRequests.length === 1 ? '' : 's'}`,
    tables: [
      {
        caption: 'Pull requests',
        columns: ['Pull request', 'State', 'Author', 'Approved by'],
        rows: pullRequests.map((pr) => [
          textOf(pr.url),
          textOf(pr.state),
          textOf(pr.author),
          (Array.isArray(pr.approvers) ? pr.approvers : []).map(approver).join(', '),
        ]),
      },
    ],
    data: null,
  };
}
