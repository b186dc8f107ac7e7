// What an environment's history shows of each snapshot: when it was taken, whether it was
// compliant, its artifacts by compliance and the policies applied; read for a range of snapshots in
// one statement, without the artifacts and states a whole snapshot holds.
import type { Statements } from './db.ts';
import type { ComplianceCount } from './snapshots.ts';

export interface SnapshotTally {
  index: number;
  startedAt: number;
  compliant: boolean;
  complianceCount: ComplianceCount;
  appliedPolicies: unknown[];
}

export interface SnapshotTallyStore {
  /** The snapshots with index in [first, last], newest first. */
  range(environmentId: number, first: number, last: number): Promise<SnapshotTally[]>;
}

export function snapshotTallyStore(sql: Statements): SnapshotTallyStore {
  return {
    async range(environmentId, first, last) {
      const rows = await sql.all<{
        idx: number;
        started_at: number;
        compliant: number;
        compliance_count: string;
        applied_policies: string;
      }>(
        `SELECT idx, started_at, compliant, compliance_count, applied_policies FROM snapshots
          WHERE environment_id = ? AND idx BETWEEN ? AND ? ORDER BY idx DESC`,
        environmentId,
        first,
        last,
      );
      return rows.map((row) => ({
        index: Number(row.idx),
        startedAt: Number(row.started_at),
        compliant: Number(row.compliant) === 1,
        complianceCount: JSON.parse(row.compliance_count) as ComplianceCount,
        appliedPolicies: JSON.parse(row.applied_policies) as unknown[],
      }));
    },
  };
}
