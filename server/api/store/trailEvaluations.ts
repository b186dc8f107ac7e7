// The rows a trail's compliance is evaluated from, for a page of a flow's trails at once: the
// trails, then all their attestation and artifact rows in one statement each, so evaluating a
// flow of thousands of trails takes three statements per page instead of three per trail.
import type { TrailArtifact, TrailAttestation, TrailTemplate } from '../../../shared/compliance/index.ts';
import type { ArtifactRow } from './artifacts.ts';
import type { AttestationRow } from './attestations.ts';
import { parseJson, type Statements } from './db.ts';

export interface TrailRows {
  id: string;
  name: string;
  templateId: string;
  /** The parsed template the trail was begun with. */
  template: TrailTemplate;
  lastModifiedAt: number;
  attestations: TrailAttestation[];
  artifacts: TrailArtifact[];
}

/** Where the next page starts: after this trail in the list's order. */
export interface TrailCursor {
  createdAt: number;
  rowid: number;
}

export interface TrailEvaluationStore {
  /**
   * A page of the flow's trails, newest first (as the trail list orders them), with their rows,
   * after `cursor` (from the start without one); `next` is undefined on the last page.
   */
  pageOfFlow(
    flowId: string,
    limit: number,
    cursor: TrailCursor | undefined,
  ): Promise<{ trails: TrailRows[]; next: TrailCursor | undefined }>;
}

interface TrailRow {
  id: string;
  rowid: number;
  created_at: number;
  name: string;
  template_id: string;
  template: string;
  last_modified_at: number;
  [column: string]: unknown;
}

/** An attestation's columns the compliance rules read. */
export type AttestationForRules = Pick<
  AttestationRow,
  | 'trail_id'
  | 'id'
  | 'name'
  | 'type'
  | 'is_override'
  | 'is_compliant'
  | 'artifact_fingerprint'
  | 'target_artifact'
  | 'created_at'
>;

/** An artifact's columns the compliance rules read. */
export type ArtifactForRules = Pick<
  ArtifactRow,
  'trail_id' | 'id' | 'fingerprint' | 'template_reference_name' | 'created_at'
>;

/** The attestation as the compliance rules take it. */
export function trailAttestationOf(row: AttestationForRules): TrailAttestation {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    is_compliant: Number(row.is_compliant) === 1,
    created_at: row.created_at,
    target_artifact: row.target_artifact,
    artifact_fingerprint: row.artifact_fingerprint,
    is_override: Number(row.is_override) === 1,
  };
}

/** The artifact as the compliance rules take it. */
export function trailArtifactOf(row: ArtifactForRules): TrailArtifact {
  return {
    id: row.id,
    fingerprint: row.fingerprint,
    template_reference_name: row.template_reference_name,
    created_at: row.created_at,
  };
}

export function trailEvaluationStore(sql: Statements): TrailEvaluationStore {
  return {
    async pageOfFlow(flowId, limit, cursor) {
      // Keyset paging on the list's index: each page costs the same however deep it is.
      const after = cursor === undefined ? '' : 'AND (created_at < ? OR (created_at = ? AND rowid < ?))';
      const trails = await sql.all<TrailRow>(
        `SELECT id, rowid, name, template_id, template, created_at, last_modified_at FROM trails
         WHERE flow_id = ? ${after} ORDER BY created_at DESC, rowid DESC LIMIT ?`,
        flowId,
        ...(cursor === undefined ? [] : [cursor.createdAt, cursor.createdAt, cursor.rowid]),
        limit,
      );
      if (trails.length === 0) return { trails: [], next: undefined };
      // The page's trail ids travel as one JSON array, whatever their number.
      const ids = JSON.stringify(trails.map((trail) => trail.id));
      const attestations = await sql.all<AttestationForRules>(
        `SELECT trail_id, id, name, type, is_override, is_compliant, artifact_fingerprint, target_artifact, created_at
         FROM attestations WHERE trail_id IN (SELECT value FROM json_each(?)) ORDER BY seq`,
        ids,
      );
      const artifacts = await sql.all<ArtifactForRules>(
        'SELECT trail_id, id, fingerprint, template_reference_name, created_at FROM artifacts WHERE trail_id IN (SELECT value FROM json_each(?)) ORDER BY seq',
        ids,
      );
      const byId = new Map<string, TrailRows>();
      // Trails begun with the same template share its parsed form.
      const templates = new Map<string, TrailTemplate>();
      for (const row of trails) {
        let template = templates.get(row.template_id);
        if (template === undefined) {
          template = parseJson<TrailTemplate>(row.template, {});
          templates.set(row.template_id, template);
        }
        byId.set(row.id, {
          id: row.id,
          name: row.name,
          templateId: row.template_id,
          template,
          lastModifiedAt: row.last_modified_at,
          attestations: [],
          artifacts: [],
        });
      }
      for (const row of attestations) {
        byId.get(row.trail_id)?.attestations.push(trailAttestationOf(row));
      }
      for (const row of artifacts) {
        byId.get(row.trail_id)?.artifacts.push(trailArtifactOf(row));
      }
      const last = trails[trails.length - 1];
      return {
        trails: [...byId.values()],
        next: trails.length < limit ? undefined : { createdAt: last.created_at, rowid: Number(last.rowid) },
      };
    },
  };
}
