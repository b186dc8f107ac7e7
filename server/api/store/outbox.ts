// The webhook outbox (migration 205): deliveries stored with the event that calls for them, claimed
// by one instance's deliverer for one attempt at a time, lane by lane in order.
import type { Statements } from './db.ts';

/** A delivery as its event stores it: the payload is the JSON text that will be POSTed. */
export interface OutboxDelivery {
  orgId: number;
  actionNumber: number;
  url: string;
  payload: string;
}

/** A stored delivery claimed for an attempt. */
export interface ClaimedDelivery extends OutboxDelivery {
  id: number;
  /** Attempts made before this one. */
  attempts: number;
}

export interface OutboxStore {
  /** Stores deliveries in the current transaction, due now, in the order given. */
  add(deliveries: readonly OutboxDelivery[], now: number): Promise<void>;
  /**
   * Claims up to `limit` due deliveries for `owner` until `until`: each the oldest of its lane
   * (one URL of one action), none of a lane whose oldest is claimed by another. Oldest first.
   */
  claim(owner: string, until: number, now: number, limit: number): Promise<ClaimedDelivery[]>;
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
  claimedInLane(lane: Omit<OutboxDelivery, 'payload'>, owner: string): Promise<ClaimedDelivery | undefined>;
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

// The oldest of its lane: no row of the same action and URL was stored before it.
const LANE_HEAD = `NOT EXISTS (SELECT 1 FROM webhook_outbox older
   WHERE older.org_id = o.org_id AND older.action_number = o.action_number AND older.url = o.url AND older.id < o.id)`;

interface OutboxRow {
  id: number;
  org_id: number;
  action_number: number;
  url: string;
  payload: string;
  attempts: number;
  [column: string]: unknown;
}

function claimedOf(row: OutboxRow): ClaimedDelivery {
  return {
    id: row.id,
    orgId: row.org_id,
    actionNumber: row.action_number,
    url: row.url,
    payload: row.payload,
    attempts: row.attempts,
  };
}

export function sqliteOutboxStore(sql: Statements, engine: OutboxEngine): OutboxStore {
  return {
    async add(deliveries, now) {
      // write(): in a concurrent transaction on PostgreSQL these are applied at its commit.
      for (const delivery of deliveries)
        await sql.write(
          'INSERT INTO webhook_outbox (org_id, action_number, url, payload, next_attempt_at) VALUES (?, ?, ?, ?, ?)',
          delivery.orgId,
          delivery.actionNumber,
          delivery.url,
          delivery.payload,
          now,
        );
    },
    async claim(owner, until, now, limit) {
      const rows = await engine.claiming(() =>
        sql.all<OutboxRow>(
          `UPDATE webhook_outbox SET claimed_by = ?, claimed_until = ?
            WHERE id IN (SELECT id FROM webhook_outbox o
                          WHERE next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?) AND ${LANE_HEAD}
                          ORDER BY id LIMIT ?${engine.lockClause})
           RETURNING id, org_id, action_number, url, payload, attempts`,
          owner,
          until,
          now,
          now,
          limit,
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
        `SELECT id, org_id, action_number, url, payload, attempts FROM webhook_outbox
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
