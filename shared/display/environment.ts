// An environment as display data (design §10): its compliance over time (compliant, non-compliant
// and unknown artifacts per snapshot, as rows and as a chart), the policies attached, and the
// environment list. Input is the API's Environment object with the Snapshot objects to show
// (their artifact_compliance_count is what the list summaries lack), and the environment list.

import {
  environmentVerdict,
  snapshotVerdict,
  verdictOf,
  type ComplianceCounts,
  type Verdict,
} from '../compliance/vocabulary.ts';
import { complianceChartSvg, type ChartPoint } from './chart.ts';
import { isRecord, listOf, numberOf, pagingOf, textOf, timeOf, type PagingDisplay, type ViewRef } from './links.ts';
import { complianceCountsOf } from './snapshot.ts';

export interface SnapshotRowDisplay {
  index: number;
  title: string;
  time: string | null;
  compliance: Verdict;
  counts: ComplianceCounts;
  /** Whether a policy judged the snapshot. */
  judged: boolean;
  ref: ViewRef;
  comparedWithPrevious: ViewRef | null;
}

export interface EnvironmentDisplay {
  name: string;
  type: string;
  description: string;
  /** The latest snapshot's compliance, and why; NO POLICY or NOT REPORTED when it has none. */
  compliance: Verdict;
  lastReportedAt: string | null;
  lastChangedAt: string | null;
  snapshotCount: number;
  /** Attached policies; the version is the one the latest shown snapshot applied, when known. */
  policies: PolicyRowDisplay[];
  includedEnvironments: { name: string; ref: ViewRef }[];
  /** Newest first. */
  snapshots: SnapshotRowDisplay[];
  /** The shown snapshots as a chart (SVG markup made by complianceChartSvg). */
  chart: string;
  chartPoints: ChartPoint[];
  latest: ViewRef | null;
}

export interface PolicyRowDisplay {
  name: string;
  version: number | null;
  /** From the Policy object, when it was given. */
  description: string;
  /** The YAML of the version applied (else the newest), when the Policy object was given. */
  yaml: string | null;
}

/**
 * `snapshots` are the Snapshot objects to show (any order); `policies` the attached Policy
 * objects (`GET /policies/{org}/{name}`), optional, for their description and YAML.
 */
export function environmentDisplay(
  environment: Record<string, unknown>,
  snapshots: readonly Record<string, unknown>[],
  policies: readonly Record<string, unknown>[] = [],
): EnvironmentDisplay {
  const name = textOf(environment.name);
  const rows = snapshots.map((snapshot) => snapshotRow(name, snapshot)).sort((a, b) => b.index - a.index);
  const newest = [...snapshots].sort((a, b) => numberOf(b.index) - numberOf(a.index))[0];
  const versions = new Map(
    listOf(newest?.applied_policies).map((policy) => [textOf(policy.name), numberOf(policy.version)]),
  );
  const chartPoints = rows.map((row) => ({ index: row.index, ...row.counts })).reverse();
  const snapshotCount =
    typeof environment.snapshot_count === 'number' ? environment.snapshot_count : (rows[0]?.index ?? 0);
  const attached = Array.isArray(environment.policies) ? environment.policies.map(textOf) : [];
  const latestRow = rows[0]?.index === snapshotCount ? rows[0] : undefined;
  return {
    name,
    type: textOf(environment.type),
    description: textOf(environment.description),
    compliance: environmentVerdict(environment.state, attached.length, snapshotCount, latestRow?.compliance),
    lastReportedAt: timeOf(environment.last_reported_at),
    lastChangedAt: timeOf(environment.last_changed_at),
    snapshotCount,
    policies: attached.map((policy) =>
      policyRow(
        policy,
        versions.get(policy) ?? null,
        policies.find((entry) => entry.name === policy),
      ),
    ),
    includedEnvironments: (Array.isArray(environment.included_environments)
      ? environment.included_environments.map(textOf)
      : []
    ).map((included) => ({
      name: included,
      ref: { kind: 'environment', environment: included },
    })),
    snapshots: rows,
    chart: complianceChartSvg(`${name}: artifacts by compliance per snapshot`, chartPoints),
    chartPoints,
    latest: snapshotCount > 0 ? { kind: 'snapshot', environment: name, index: snapshotCount } : null,
  };
}

function policyRow(
  name: string,
  version: number | null,
  policy: Record<string, unknown> | undefined,
): PolicyRowDisplay {
  const versions = listOf(policy?.versions);
  const shown = versions.find((entry) => entry.version === version) ?? versions[versions.length - 1];
  return {
    name,
    version,
    description: textOf(policy?.description),
    yaml: shown === undefined ? null : textOf(shown.policy_yaml),
  };
}

function snapshotRow(environment: string, snapshot: Record<string, unknown>): SnapshotRowDisplay {
  const index = numberOf(snapshot.index);
  const counts = complianceCountsOf(snapshot.artifact_compliance_count);
  const policies = listOf(snapshot.applied_policies).length;
  return {
    index,
    title: `${environment}#${index}`,
    time: timeOf(snapshot.timestamp ?? snapshot.from),
    compliance: snapshotVerdict(snapshot.compliant, policies, counts),
    counts,
    judged: policies > 0,
    ref: { kind: 'snapshot', environment, index },
    comparedWithPrevious:
      index > 1 ? { kind: 'comparison', from: { environment, index: index - 1 }, to: { environment, index } } : null,
  };
}

export interface EnvironmentRowDisplay {
  name: string;
  type: string;
  description: string;
  compliance: Verdict;
  lastReportedAt: string | null;
  snapshotCount: number;
  policies: string[];
  ref: ViewRef;
  /** Set when the server could not render this entry (a marked placeholder). */
  problem: string | null;
}

export interface EnvironmentListDisplay {
  environments: EnvironmentRowDisplay[];
  paging: PagingDisplay;
}

/** `GET /environments/{org}` as a plain array or its paged `{environments, page, per_page, total_count}` form. */
export function environmentListDisplay(list: unknown): EnvironmentListDisplay {
  const paged = isRecord(list) ? list : null;
  const items = listOf(paged === null ? list : paged.environments);
  const rows = items.map((entry): EnvironmentRowDisplay => {
    const name = entry.placeholder === true ? textOf(entry.id) : textOf(entry.name);
    const policies = Array.isArray(entry.policies) ? entry.policies.map(textOf) : [];
    const snapshotCount = numberOf(entry.snapshot_count);
    return {
      name,
      type: textOf(entry.type),
      description: textOf(entry.description),
      compliance:
        entry.placeholder === true
          ? verdictOf('UNKNOWN', textOf(entry.message))
          : environmentVerdict(entry.state, policies.length, snapshotCount),
      lastReportedAt: timeOf(entry.last_reported_at),
      snapshotCount,
      policies,
      ref: { kind: 'environment', environment: name },
      problem: entry.placeholder === true ? textOf(entry.message) : null,
    };
  });
  const paging =
    paged === null
      ? pagingOf(1, Math.max(rows.length, 1), rows.length)
      : pagingOf(
          numberOf(paged.page) || 1,
          numberOf(paged.per_page) || Math.max(rows.length, 1),
          numberOf(paged.total_count),
        );
  return { environments: rows, paging };
}
