// Where running artifacts come from: for a batch of fingerprints, every trail they were attested
// in, with what a policy needs to judge them (the trail's template, attestation and artifact rows).
// Reads the flow, trail, artifact and attestation tables; writes only trail events.
import type { TrailArtifact, TrailAttestation } from '../../../shared/compliance/index.ts';
import { templateOf, type FlowTemplate } from '../../../shared/templates/index.ts';
import { parseJson, type Statements } from './db.ts';
import type { AttestationRow } from './attestations.ts';
import {
  trailArtifactOf,
  trailAttestationOf,
  type AttestationForRules,
  type ArtifactForRules,
} from './trailEvaluations.ts';

/** One trail in which a fingerprint was attested. */
export interface Origin {
  fingerprint: string;
  artifactId: string;
  flowName: string;
  flowTags: Record<string, string>;
  flowTemplateId: string;
  trailId: string;
  trailName: string;
  trailTemplate: FlowTemplate;
  templateReferenceName: string;
  filename: string;
  gitCommit: string;
  repoName: string;
  commitUrl: string;
  buildUrl: string;
  /** The artifact's commit as reported, null without one. */
  gitCommitInfo: unknown;
  /** The repository's address as reported (repo_url, else repo_info.url), '' without one. */
  repoUrl: string;
  /** The trail's stored compliance state (migration 203); null while it is not stored. */
  complianceState: string | null;
  /** Every attestation row of the trail. */
  attestations: TrailAttestation[];
  /** Every artifact row of the trail. */
  artifacts: TrailArtifact[];
}

export interface ProvenanceStore {
  /** Origins by fingerprint, for the fingerprints that have any; trails in order of attestation. */
  originsOf(orgId: number, fingerprints: readonly string[]): Promise<Map<string, Origin[]>>;
  /** Adds an event to a live flow's trail, when both still exist. */
  addTrailEvent(
    orgId: number,
    flowName: string,
    trailName: string,
    type: string,
    data: Record<string, unknown>,
    now: number,
  ): Promise<void>;
}

interface OriginRow {
  fingerprint: string;
  artifact_id: string;
  template_reference_name: string;
  filename: string;
  git_commit: string;
  repo_name: string | null;
  artifact_body: string;
  flow_name: string;
  flow_tags: string;
  trail_id: string;
  trail_name: string;
  trail_template_id: string;
  trail_template: string;
  trail_compliance_state: string | null;
  [column: string]: unknown;
}

/** The attestation columns compliance needs, and its body (a decision's control), read in one query across all of an artifact's trails. */
type AttestationWithBody = AttestationForRules & Pick<AttestationRow, 'body'>;

function groupByTrail<T extends { trail_id: string }>(rows: readonly T[]): Map<string, T[]> {
  const byTrail = new Map<string, T[]>();
  for (const row of rows) {
    const list = byTrail.get(row.trail_id);
    if (list === undefined) byTrail.set(row.trail_id, [row]);
    else list.push(row);
  }
  return byTrail;
}

function toTrailAttestation(row: AttestationWithBody): TrailAttestation {
  const body = parseJson<Record<string, unknown>>(row.body, {});
  return { ...trailAttestationOf(row), control: typeof body.control === 'string' ? body.control : null };
}

function repoUrlOf(body: Record<string, unknown>): string {
  if (typeof body.repo_url === 'string' && body.repo_url !== '') return body.repo_url;
  const info = body.repo_info;
  return info !== null && typeof info === 'object' && typeof (info as { url?: unknown }).url === 'string'
    ? (info as { url: string }).url
    : '';
}

export function provenanceStore(sql: Statements): ProvenanceStore {
  return {
    async originsOf(orgId, fingerprints) {
      const origins = new Map<string, Origin[]>();
      if (fingerprints.length === 0) return origins;
      // One statement for any number of fingerprints: they travel as one JSON array.
      const rows = await sql.all<OriginRow>(
        `SELECT a.fingerprint, a.id AS artifact_id, a.template_reference_name, a.filename, a.git_commit, a.repo_name,
                a.body AS artifact_body, f.name AS flow_name, f.tags AS flow_tags,
                t.id AS trail_id, t.name AS trail_name, t.template_id AS trail_template_id, t.template AS trail_template,
                t.compliance_state AS trail_compliance_state
         FROM artifacts a
         JOIN trails t ON t.id = a.trail_id
         JOIN flows f ON f.id = a.flow_id
         WHERE a.org_id = ? AND f.archived_at IS NULL AND a.fingerprint IN (SELECT value FROM json_each(?))
         ORDER BY a.seq`,
        orgId,
        JSON.stringify(fingerprints),
      );
      if (rows.length === 0) return origins;
      const trailIds = JSON.stringify([...new Set(rows.map((row) => row.trail_id))]);
      const attestations = groupByTrail(
        await sql.all<AttestationWithBody>(
          `SELECT trail_id, id, name, type, is_override, is_compliant, artifact_fingerprint, target_artifact, body, created_at
           FROM attestations WHERE trail_id IN (SELECT value FROM json_each(?)) ORDER BY seq`,
          trailIds,
        ),
      );
      const artifacts = groupByTrail(
        await sql.all<ArtifactForRules>(
          `SELECT trail_id, id, fingerprint, template_reference_name, created_at
           FROM artifacts WHERE trail_id IN (SELECT value FROM json_each(?)) ORDER BY seq`,
          trailIds,
        ),
      );
      const seen = new Set<string>();
      for (const row of rows) {
        // The same fingerprint under two template names of one trail is one origin.
        const key = `${row.fingerprint}\0${row.trail_id}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const body = parseJson<Record<string, unknown>>(row.artifact_body, {});
        const origin: Origin = {
          fingerprint: row.fingerprint,
          artifactId: row.artifact_id,
          flowName: row.flow_name,
          flowTags: parseJson(row.flow_tags, {}),
          flowTemplateId: row.trail_template_id,
          trailId: row.trail_id,
          trailName: row.trail_name,
          trailTemplate: templateOf(parseJson(row.trail_template, {})),
          templateReferenceName: row.template_reference_name,
          filename: row.filename,
          gitCommit: row.git_commit,
          repoName: row.repo_name ?? '',
          commitUrl: typeof body.commit_url === 'string' ? body.commit_url : '',
          buildUrl: typeof body.build_url === 'string' ? body.build_url : '',
          gitCommitInfo: body.git_commit_info ?? null,
          repoUrl: repoUrlOf(body),
          complianceState: row.trail_compliance_state,
          attestations: (attestations.get(row.trail_id) ?? []).map(toTrailAttestation),
          artifacts: (artifacts.get(row.trail_id) ?? []).map(trailArtifactOf),
        };
        const list = origins.get(row.fingerprint);
        if (list === undefined) origins.set(row.fingerprint, [origin]);
        else list.push(origin);
      }
      return origins;
    },
    async addTrailEvent(orgId, flowName, trailName, type, data, now) {
      await sql.run(
        `INSERT INTO trail_events (trail_id, type, timestamp, data)
         SELECT t.id, ?, ?, ? FROM trails t JOIN flows f ON f.id = t.flow_id
         WHERE f.org_id = ? AND f.name = ? AND f.archived_at IS NULL AND t.name = ?`,
        type,
        now,
        JSON.stringify(data),
        orgId,
        flowName,
        trailName,
      );
    },
  };
}
