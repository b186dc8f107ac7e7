// The webhook outbox (migrations 205, 230): deliveries stored with the event that calls for them,
// claimed by one instance's deliverer for one attempt at a time, lane by lane in order, and no
// more at a time per org and per target than the deliverer's limits.
import type { Statements } from './db.ts';

/** A delivery as its event stores it: the payload is the JSON text that will be POSTed. */
export interface OutboxDelivery {
  orgId: number;
  actionNumber: number;
  url: string;
  /** The receiving server the URL names (host and port): what the per-target limit counts. */
  target: string;
  payload: string;
}

/** A stored delivery claimed for an attempt. */
export interface ClaimedDelivery extends OutboxDelivery {
  id: number;
  /** Attempts made before this one. */
  attempts: number;
}

/** How many deliveries a claim may take, counting the attempts the claiming deliverer has in flight. */
export interface ClaimLimits {
  /** Deliveries in this claim at most. */
  total: number;
  /** Attempts in flight per org at most, this claim's included. */
  perOrg: number;
  /** Attempts in flight per target of an org at most, this claim's included. */
  perTarget: number;
  /** The deliverer's attempts in flight, one entry each. */
  inFlight: ReadonlyArray<Pick<OutboxDelivery, 'orgId' | 'target'>>;
}

export interface OutboxStore {
  /** Stores deliveries in the current transaction, due now, in the order given. */
  add(deliveries: readonly OutboxDelivery[], now: number): Promise<void>;
  /**
   * Claims due deliveries for `owner` until `until`: each the oldest of its lane (one URL of one
   * action), none of a lane whose oldest is claimed by another, within `limits`. Each org's oldest
   * first, then each org's second, and so on: an org with many due deliveries waits its turn.
   */
  claim(owner: string, until: number, now: number, limits: ClaimLimits): Promise<ClaimedDelivery[]>;
  /** When the first unclaimed (or expired) oldest of a lane is due; undefined when none waits. */
  nextDue(now: number): Promise<number | undefined>;
  /** Gives a delivery `owner` holds back, to be tried again at `nextAttemptAt` (writes only). */
  retryLater(id: number, owner: string, attempts: number, nextAttemptAt: number): Promise<void>;
  /**
   * Deletes a delivery `owner` holds whose outcome is final, and claims the next of its lane for
   * `owner` if it is due, so a lane's deliveries follow each other without a claim of their own.
   * Writes only, so it fits a concurrent transaction; claimedInLane() says what was claimed.
   */
  finish(delivery: ClaimedDelivery, owner: string, until: number, now: number): Promise<void>;
  /** The delivery of `lane` that `owner` holds, if any. */
  claimedInLane(lane: Omit<OutboxDelivery, 'payload' | 'target'>, owner: string): Promise<ClaimedDelivery | undefined>;
  /** Gives back every claim of `owner` (its deliverer stops), so another takes them at once. */
  releaseAll(owner: string): Promise<void>;
}

export interface OutboxEngine {
  /**
   * Runs the claim, one statement. SQLite: in a write transaction. PostgreSQL: on its own (it
   * commits at once, without the write lock), the rows it claims locked and others' locked rows
   * skipped, so instances claiming at the same moment never take the same row.
   */
  claiming<T>(claim: () => Promise<T>): Promise<T>;
  /** `FOR UPDATE SKIP LOCKED` where the engine has it. */
  lockClause: string;
}

// The oldest of its lane (one URL of one action). Read as the first id of each lane, in one pass
// over the lane index: a subquery per row was four times slower with a backlog (20k rows in 50
// lanes: 3 ms against 24 ms for a claim on SQLite, which claims under the write lock).
const LANE_HEAD = `o.id IN (SELECT min(id) FROM webhook_outbox GROUP BY org_id, action_number, url)`;

interface OutboxRow {
  id: number;
  org_id: number;
  action_number: number;
  url: string;
  target: string;
  payload: string;
  attempts: number;
  [column: string]: unknown;
}

const COLUMNS = 'id, org_id, action_number, url, target, payload, attempts';

/**
 * The due lane heads a claim may take, fairly: within each target of an org, as many as the
 * target has room for (its turn, oldest first, plus its attempts in flight, within perTarget);
 * of those, within each org, as many as the org has room for; then each org's first turn before
 * any org's second, oldest first. Parameters: now (twice), the attempts in flight by target
 * (JSON), perTarget, the attempts in flight by org (JSON), perOrg, and how many at most.
 */
const FAIR_HEADS = `
  SELECT id FROM (
    SELECT id, org_id, ROW_NUMBER() OVER (PARTITION BY org_id ORDER BY id) AS org_turn FROM (
      SELECT id, org_id, target, ROW_NUMBER() OVER (PARTITION BY org_id, target ORDER BY id) AS target_turn
        FROM webhook_outbox o
       WHERE next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?) AND ${LANE_HEAD}
    ) heads
    WHERE target_turn + COALESCE((SELECT CAST(value AS INTEGER) FROM json_each(?) WHERE key = heads.org_id || ' ' || heads.target), 0) <= ?
  ) fair
  WHERE org_turn + COALESCE((SELECT CAST(value AS INTEGER) FROM json_each(?) WHERE key = CAST(fair.org_id AS TEXT)), 0) <= ?
  ORDER BY org_turn, id LIMIT ?`;

/** How many of `inFlight` each key has, as a JSON object (read by json_each). */
function inFlightJson<T>(inFlight: readonly T[], keyOf: (item: T) => string): string {
  const counts: Record<string, number> = {};
  for (const item of inFlight) counts[keyOf(item)] = (counts[keyOf(item)] ?? 0) + 1;
  return JSON.stringify(counts);
}

function claimedOf(row: OutboxRow): ClaimedDelivery {
  return {
    id: row.id,
    orgId: row.org_id,
    actionNumber: row.action_number,
    url: row.url,
    target: row.target,
    payload: row.payload,
    attempts: row.attempts,
  };
}

export function outboxStore(sql: Statements, engine: OutboxEngine): OutboxStore {
  return {
    async add(deliveries, now) {
      // write(): in a concurrent transaction on PostgreSQL these are applied at its commit.
      for (const delivery of deliveries)
        await sql.write(
          'INSERT INTO webhook_outbox (org_id, action_number, url, target, payload, next_attempt_at) VALUES (?, ?, ?, ?, ?, ?)',
          delivery.orgId,
          delivery.actionNumber,
          delivery.url,
          delivery.target,
          delivery.payload,
          now,
        );
    },
    async claim(owner, until, now, limits) {
      const rows = await engine.claiming(() =>
        sql.all<OutboxRow>(
          `UPDATE webhook_outbox SET claimed_by = ?, claimed_until = ?
            WHERE id IN (SELECT id FROM webhook_outbox WHERE id IN (${FAIR_HEADS})
                            AND (claimed_until IS NULL OR claimed_until <= ?)${engine.lockClause})
           RETURNING ${COLUMNS}`,
          owner,
          until,
          now,
          now,
          inFlightJson(limits.inFlight, (item) => `${item.orgId} ${item.target}`),
          limits.perTarget,
          inFlightJson(limits.inFlight, (item) => String(item.orgId)),
          limits.perOrg,
          limits.total,
          now,
        ),
      );
      return rows.map(claimedOf).sort((a, b) => a.id - b.id);
    },
    async nextDue(now) {
      const row = await sql.get<{ due: number | null }>(
        `SELECT min(CASE WHEN claimed_until IS NULL OR claimed_until <= ? THEN next_attempt_at ELSE claimed_until END) AS due
           FROM webhook_outbox o WHERE ${LANE_HEAD}`,
        now,
      );
      return row?.due ?? undefined;
    },
    async retryLater(id, owner, attempts, nextAttemptAt) {
      await sql.write(
        'UPDATE webhook_outbox SET attempts = ?, next_attempt_at = ?, claimed_by = NULL, claimed_until = NULL WHERE id = ? AND claimed_by = ?',
        attempts,
        nextAttemptAt,
        id,
        owner,
      );
    },
    async finish(delivery, owner, until, now) {
      await sql.write('DELETE FROM webhook_outbox WHERE id = ? AND claimed_by = ?', delivery.id, owner);
      // The next is the oldest of the lane only once the row before it is gone: if another
      // deliverer holds that row (this claim expired), the delete did nothing and so does this.
      await sql.write(
        `UPDATE webhook_outbox SET claimed_by = ?, claimed_until = ?
          WHERE id = (SELECT id FROM webhook_outbox WHERE org_id = ? AND action_number = ? AND url = ? ORDER BY id LIMIT 1)
            AND next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?)`,
        owner,
        until,
        delivery.orgId,
        delivery.actionNumber,
        delivery.url,
        now,
        now,
      );
    },
    async claimedInLane(lane, owner) {
      const row = await sql.get<OutboxRow>(
        `SELECT ${COLUMNS} FROM webhook_outbox
          WHERE org_id = ? AND action_number = ? AND url = ? AND claimed_by = ? ORDER BY id LIMIT 1`,
        lane.orgId,
        lane.actionNumber,
        lane.url,
        owner,
      );
      return row === undefined ? undefined : claimedOf(row);
    },
    async releaseAll(owner) {
      await sql.run('UPDATE webhook_outbox SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by = ?', owner);
    },
  };
}
