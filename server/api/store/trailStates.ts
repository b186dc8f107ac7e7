// Trails' compliance states kept on write (migration 203): the triggers queue every trail whose
// rows a transaction wrote, and the queue is evaluated before that transaction ends, so a stored
// state is never older than the rows it was evaluated from. A state is evaluated from the rows it
// depends on: each attestation's latest version (attestation_heads) and each template slot's
// latest artifact, so a write costs the same however many versions its trail has collected.
// Evaluating the queue also moves each written trail's version (migration 206), in the update
// that stores its state: one update of the trail's row and of its flow's per transaction.
import { evaluateTrail, type TrailArtifact, type TrailAttestation } from '../../../shared/compliance/index.ts';
import { placeholderList, type BeforeCommit, type Row, type Statements } from './db.ts';
import { trailAttestationOf, type AttestationForRules } from './trailEvaluations.ts';
import { toTrail, type TrailRow } from './trails.ts';

/** Trails evaluated per round of statements. */
const BATCH = 500;

/** A trail's row, and whether one of its attestations or artifacts cannot be read (an index lookup). */
interface TrailStateRow extends TrailRow {
  unreadable_rows: number;
}

/**
 * The rows a state depends on, attestations and artifacts in one statement (a write waits on each
 * round trip): an artifact's row carries its fingerprint in artifact_fingerprint and its slot in name.
 */
interface EvidenceRow extends AttestationForRules {
  kind: 'attestation' | 'artifact';
  seq: number;
  [column: string]: unknown;
}

/**
 * Evaluates the trails and stores their states. A trail with a row a read cannot decode (its own,
 * an attestation's or an artifact's) keeps no state, so reads evaluate it (and show its
 * placeholder) as they did before states were kept. `written` trails were written since their
 * last evaluation: their versions move in the same update (migration 206).
 */
async function storeStates(sql: Statements, ids: readonly string[], written: boolean): Promise<void> {
  const list = placeholderList(ids.length);
  // Both reads in one round trip: on PostgreSQL a concurrent commit makes them while the rows its
  // group wrote stay locked.
  const [trailRows, evidenceRows] = await sql.allEach([
    [
      `SELECT t.*, CASE WHEN EXISTS (SELECT 1 FROM attestations WHERE trail_id = t.id AND NOT json_valid(body))
                        OR EXISTS (SELECT 1 FROM artifacts WHERE trail_id = t.id AND NOT json_valid(body)) THEN 1 ELSE 0 END AS unreadable_rows
       FROM trails t WHERE t.id IN (${list})`,
      ...ids,
    ],
    // Each attestation's latest version and each slot's latest artifact, in the order a read lists
    // them (by seq), which breaks ties of created_at as a read does.
    [
      `SELECT 'attestation' AS kind, a.trail_id, a.id, a.name, a.type, a.is_override, a.is_compliant,
            a.artifact_fingerprint, a.target_artifact, a.created_at, a.seq
       FROM attestation_heads h JOIN attestations a ON a.seq = h.seq WHERE h.trail_id IN (${list})
     UNION ALL
     SELECT 'artifact' AS kind, a.trail_id, a.id, a.template_reference_name, '', 0, 0, a.fingerprint, NULL, a.created_at, a.seq
       FROM artifacts a
      WHERE a.trail_id IN (${list})
        AND a.seq = (SELECT b.seq FROM artifacts b WHERE b.trail_id = a.trail_id AND b.template_reference_name = a.template_reference_name
                      ORDER BY b.created_at DESC, b.seq DESC LIMIT 1)
     ORDER BY seq`,
      ...ids,
      ...ids,
    ],
  ]);
  const trails = trailRows as TrailStateRow[];
  const evidence = evidenceRows as EvidenceRow[];
  const attestations = new Map<string, TrailAttestation[]>();
  const artifacts = new Map<string, TrailArtifact[]>();
  for (const row of evidence) {
    if (row.kind === 'attestation') appendTo(attestations, row.trail_id, trailAttestationOf(row));
    else
      appendTo(artifacts, row.trail_id, {
        id: row.id,
        fingerprint: row.artifact_fingerprint!,
        template_reference_name: row.name,
        created_at: row.created_at,
      });
  }
  const changed: Array<[string, string | null]> = [];
  for (const row of trails) {
    let state: string | null = null;
    if (Number(row.unreadable_rows) === 0) {
      try {
        const trail = toTrail(row);
        state = evaluateTrail(
          trail.template.parsed,
          attestations.get(row.id) ?? [],
          artifacts.get(row.id) ?? [],
          trail.lastModifiedAt,
          trail.template.id,
        ).compliance_state;
      } catch {
        // The trail's own row cannot be read: no state, as for its other rows.
      }
    }
    // An unchanged state of a trail not written is not written, so its flow is not updated.
    if (written || (row.compliance_state ?? null) !== state) changed.push([row.id, state]);
  }
  // One statement for the batch, one update of each row: on PostgreSQL a concurrent commit
  // evaluates every trail its group wrote, and sends this with its COMMIT (BeforeCommit).
  if (changed.length > 0)
    await sql.write(
      `UPDATE trails SET ${written ? 'version = version + 1, ' : ''}compliance_state = CASE id ${changed.map(() => 'WHEN ? THEN ?').join(' ')} END
        WHERE id IN (${placeholderList(changed.length)})`,
      ...changed.flat(),
      ...changed.map(([id]) => id),
    );
}

function appendTo<T>(groups: Map<string, T[]>, key: string, item: T): void {
  const group = groups.get(key);
  if (group === undefined) groups.set(key, [item]);
  else group.push(item);
}

/** Empties the queue of trails to evaluate, answering their ids (repeated as queued). */
const TAKE_QUEUE = 'DELETE FROM trails_to_evaluate RETURNING trail_id';

/** Evaluates the trails written since the queue was last emptied and moves their versions; run at the end of each write transaction. */
export async function evaluateQueuedTrails(sql: Statements): Promise<void> {
  await evaluateTakenTrails(sql, await sql.all(TAKE_QUEUE));
}

/**
 * evaluateQueuedTrails for a commit of PostgreSQL's concurrent transactions: the queue is taken in
 * the message of the commit's writes, and the states stored with its COMMIT.
 */
export const evaluateTrailsBeforeCommit: BeforeCommit = { read: TAKE_QUEUE, run: evaluateTakenTrails };

/** Evaluates the trails of `queued` (rows of TAKE_QUEUE). */
async function evaluateTakenTrails(sql: Statements, queued: Row[]): Promise<void> {
  if (queued.length === 0) return;
  const ids = [...new Set(queued.map((row) => String(row.trail_id)))];
  for (let start = 0; start < ids.length; start += BATCH) await storeStates(sql, ids.slice(start, start + BATCH), true);
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
      false,
    );
    after = Number(rows[rows.length - 1].rowid);
  }
}
