// Trails' compliance states kept on write (migration 203): the triggers queue every trail whose
// rows a transaction wrote, and the queue is evaluated before that transaction ends, so a stored
// state is never older than the rows it was evaluated from. A state is evaluated from the rows it
// depends on: each attestation's latest version (attestation_heads) and each template slot's
// latest artifact, so a write costs the same however many versions its trail has collected.
import { evaluateTrail, type TrailArtifact, type TrailAttestation } from '../../../shared/compliance/index.ts';
import { placeholderList, type Statements } from './db.ts';
import { sqliteTrailStore } from './trails.ts';

/** Trails evaluated per round of statements. */
const BATCH = 500;

interface AttestationRow {
  trail_id: string;
  id: string;
  name: string;
  type: string;
  is_override: number;
  is_compliant: number;
  artifact_fingerprint: string | null;
  target_artifact: string | null;
  created_at: number;
  [column: string]: unknown;
}

interface ArtifactRow {
  trail_id: string;
  id: string;
  fingerprint: string;
  template_reference_name: string;
  created_at: number;
  [column: string]: unknown;
}

function grouped<T extends { trail_id: string }>(rows: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(row.trail_id);
    if (group === undefined) groups.set(row.trail_id, [row]);
    else group.push(row);
  }
  return groups;
}

/**
 * Evaluates the trails and stores their states. A trail with a row a read cannot decode (its own,
 * an attestation's or an artifact's) keeps no state, so reads evaluate it (and show its
 * placeholder) as they did before states were kept.
 */
async function storeStates(sql: Statements, ids: readonly string[]): Promise<void> {
  const list = placeholderList(ids.length);
  const trails = await sqliteTrailStore(sql).byIds(ids);
  const unreadable = new Set(
    (
      await sql.all<{ trail_id: string }>(
        `SELECT trail_id FROM attestations WHERE trail_id IN (${list}) AND NOT json_valid(body)
         UNION SELECT trail_id FROM artifacts WHERE trail_id IN (${list}) AND NOT json_valid(body)`,
        ...ids,
        ...ids,
      )
    ).map((row) => row.trail_id),
  );
  // In the order a read lists them (by seq), which breaks ties of created_at as a read does.
  const attestations = grouped(
    await sql.all<AttestationRow>(
      `SELECT a.trail_id, a.id, a.name, a.type, a.is_override, a.is_compliant, a.artifact_fingerprint, a.target_artifact, a.created_at
         FROM attestation_heads h JOIN attestations a ON a.seq = h.seq
        WHERE h.trail_id IN (${list}) ORDER BY a.seq`,
      ...ids,
    ),
  );
  const artifacts = grouped(
    await sql.all<ArtifactRow>(
      `SELECT a.trail_id, a.id, a.fingerprint, a.template_reference_name, a.created_at FROM artifacts a
        WHERE a.trail_id IN (${list})
          AND a.seq = (SELECT b.seq FROM artifacts b WHERE b.trail_id = a.trail_id AND b.template_reference_name = a.template_reference_name
                        ORDER BY b.created_at DESC, b.seq DESC LIMIT 1)
        ORDER BY a.seq`,
      ...ids,
    ),
  );
  for (const id of ids) {
    const trail = trails.get(id);
    if (trail === undefined) continue;
    let state: string | null = null;
    if (!(trail instanceof Error) && !unreadable.has(id)) {
      const inTrail = (attestations.get(id) ?? []).map((row): TrailAttestation => ({
        id: row.id,
        name: row.name,
        type: row.type,
        is_compliant: Number(row.is_compliant) === 1,
        created_at: row.created_at,
        target_artifact: row.target_artifact,
        artifact_fingerprint: row.artifact_fingerprint,
        is_override: Number(row.is_override) === 1,
      }));
      const artifactsInTrail = (artifacts.get(id) ?? []).map((row): TrailArtifact => ({
        id: row.id,
        fingerprint: row.fingerprint,
        template_reference_name: row.template_reference_name,
        created_at: row.created_at,
      }));
      state = evaluateTrail(
        trail.template.parsed,
        inTrail,
        artifactsInTrail,
        trail.lastModifiedAt,
        trail.template.id,
      ).compliance_state;
    }
    // An unchanged state is not written, so the flow's latest state is not looked up again.
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
