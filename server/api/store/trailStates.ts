// Trails' compliance states kept on write (migration 203): the triggers queue every trail whose
// rows a transaction wrote, and the queue is evaluated before that transaction ends, so a stored
// state is never older than the rows it was evaluated from. Evaluated exactly as a read evaluates
// (the same rows, decoded the same way), so a stored state is the state a read would compute.
import { evaluationFrom } from '../rules/compliance.ts';
import { sqliteArtifactStore } from './artifacts.ts';
import { sqliteAttestationStore } from './attestations.ts';
import type { Statements } from './db.ts';
import { sqliteTrailStore } from './trails.ts';

/** Trails evaluated per round of statements. */
const BATCH = 500;

/**
 * Evaluates the trails and stores their states; a trail with a row that cannot be read keeps no
 * state, so reads evaluate it (and show its placeholder) as they did before states were kept.
 */
async function storeStates(sql: Statements, ids: readonly string[]): Promise<void> {
  const [trails, attestations, artifacts] = await Promise.all([
    sqliteTrailStore(sql).byIds(ids),
    sqliteAttestationStore(sql).inTrails(ids),
    sqliteArtifactStore(sql).inTrails(ids),
  ]);
  for (const id of ids) {
    const trail = trails.get(id);
    if (trail === undefined) continue;
    const inTrail = attestations.get(id) ?? [];
    const artifactsInTrail = artifacts.get(id) ?? [];
    let state: string | null = null;
    if (!(trail instanceof Error || inTrail instanceof Error || artifactsInTrail instanceof Error)) {
      try {
        state = evaluationFrom(trail, inTrail, artifactsInTrail).compliance_state;
      } catch {
        state = null;
      }
    }
    // Unchanged states are not written, so the flow's latest state is not looked up again.
    if (state === null)
      await sql.run('UPDATE trails SET compliance_state = NULL WHERE id = ? AND compliance_state IS NOT NULL', id);
    else
      await sql.run(
        'UPDATE trails SET compliance_state = ? WHERE id = ? AND (compliance_state IS NULL OR compliance_state <> ?)',
        state,
        id,
        state,
      );
  }
}

/** Evaluates the trails written since the queue was last emptied; run at the end of each write transaction. */
export async function evaluateQueuedTrails(sql: Statements): Promise<void> {
  const queued = await sql.all<{ trail_id: string }>('SELECT DISTINCT trail_id FROM trails_to_evaluate');
  if (queued.length === 0) return;
  await sql.run('DELETE FROM trails_to_evaluate');
  const ids = queued.map((row) => row.trail_id);
  for (let start = 0; start < ids.length; start += BATCH) await storeStates(sql, ids.slice(start, start + BATCH));
}

/** Evaluates every trail (the migration that began keeping states), a batch at a time in insertion order. */
export async function evaluateEveryTrail(sql: Statements): Promise<void> {
  let after = -1;
  for (;;) {
    const rows = await sql.all<{ id: string; rowid: number }>(
      'SELECT id, rowid FROM trails WHERE rowid > ? ORDER BY rowid LIMIT ?',
      after,
      BATCH,
    );
    if (rows.length === 0) return;
    await storeStates(
      sql,
      rows.map((row) => row.id),
    );
    after = Number(rows[rows.length - 1].rowid);
  }
}
