import type { Migration } from './index.ts';

// A trail's events keep what the report that made each one carried (reference §8.5): its commit
// and repository (git_commit_info, repo_info), the trail's data as reported on trail_reported and
// trail_updated (trail_data_json, with the template's id), the artifact's id and commit on
// artifact_creation_reported, the environment's id on artifact_started_running and
// artifact_stopped_running. New events are written so (the services); the events written before
// are given them here from the rows they came from: an attestation event from its attestation,
// an artifact event from its artifact, a trail's own events from the trail as it reads now (what
// an update sent was not kept), a running event from the environment of that name the org had at
// the time. An event whose row cannot be read or found is left as it was; its answer reads null
// for the commit and repository. The data stays text on both engines, so each engine has its own
// statements: SQLite's JSON functions, PostgreSQL's jsonb operators.

const ATTESTATION_EVENTS = `('trail_attestation_reported', 'artifact_attestation_reported', 'trail_attestation_for_artifact_reported')`;
const RUNNING_EVENTS = `('artifact_started_running', 'artifact_stopped_running')`;

/** The event's field as text, or NULL when the event's data cannot be read (so a damaged row matches nothing). */
const sqliteField = (field: string) =>
  `CASE WHEN json_valid(trail_events.data) THEN trail_events.data ->> '$.${field}' END`;
const postgresField = (field: string) =>
  `CASE WHEN json_valid(trail_events.data) THEN trail_events.data::json ->> '${field}' END`;

/** The id of the environment named by the event that the trail's org had when the event happened. */
const environmentOf = (field: (name: string) => string) => `
  (SELECT CAST(e.id AS TEXT) FROM environments e JOIN trails t ON t.org_id = e.org_id
    WHERE t.id = trail_events.trail_id AND e.name = ${field('environment_name')} AND e.created_at <= trail_events.timestamp
    ORDER BY e.created_at DESC LIMIT 1)`;

const sql = `
    UPDATE trail_events SET data = json_set(data,
             '$.git_commit_info', json(t.body -> '$.git_commit_info'),
             '$.repo_info', json(t.body -> '$.repo_info'),
             '$.trail_data_json', json_set(t.body, '$.name', t.name, '$.description', t.description, '$.template_id', t.template_id))
      FROM trails t
     WHERE t.id = trail_events.trail_id AND trail_events.type IN ('trail_reported', 'trail_updated')
       AND json_valid(trail_events.data) AND json_valid(t.body);
    UPDATE trail_events SET data = json_set(data,
             '$.git_commit_info', json(a.body -> '$.git_commit_info'),
             '$.repo_info', json(a.body -> '$.repo_info'))
      FROM attestations a
     WHERE a.id = ${sqliteField('attestation_id')} AND trail_events.type IN ${ATTESTATION_EVENTS} AND json_valid(a.body);
    UPDATE trail_events SET data = json_set(data,
             '$.artifact_id', a.id,
             '$.git_commit', a.git_commit,
             '$.git_commit_info', json(a.body -> '$.git_commit_info'),
             '$.repo_info', json(a.body -> '$.repo_info'))
      FROM artifacts a
     WHERE a.trail_id = trail_events.trail_id AND trail_events.type = 'artifact_creation_reported'
       AND a.template_reference_name = ${sqliteField('template_reference_name')}
       AND a.fingerprint = ${sqliteField('artifact_fingerprint')} AND json_valid(a.body);
    UPDATE trail_events SET data = json_set(data, '$.environment_id', ${environmentOf(sqliteField)})
     WHERE type IN ${RUNNING_EVENTS} AND ${environmentOf(sqliteField)} IS NOT NULL;
  `;

const postgres = `
    UPDATE trail_events SET data = (data::jsonb || jsonb_build_object(
             'git_commit_info', t.body::jsonb -> 'git_commit_info',
             'repo_info', t.body::jsonb -> 'repo_info',
             'trail_data_json', t.body::jsonb || jsonb_build_object('name', t.name, 'description', t.description, 'template_id', t.template_id)))::text
      FROM trails t
     WHERE t.id = trail_events.trail_id AND trail_events.type IN ('trail_reported', 'trail_updated')
       AND json_valid(trail_events.data) AND json_valid(t.body);
    UPDATE trail_events SET data = (data::jsonb || jsonb_build_object(
             'git_commit_info', a.body::jsonb -> 'git_commit_info',
             'repo_info', a.body::jsonb -> 'repo_info'))::text
      FROM attestations a
     WHERE a.id = ${postgresField('attestation_id')} AND trail_events.type IN ${ATTESTATION_EVENTS} AND json_valid(a.body);
    UPDATE trail_events SET data = (data::jsonb || jsonb_build_object(
             'artifact_id', a.id,
             'git_commit', a.git_commit,
             'git_commit_info', a.body::jsonb -> 'git_commit_info',
             'repo_info', a.body::jsonb -> 'repo_info'))::text
      FROM artifacts a
     WHERE a.trail_id = trail_events.trail_id AND trail_events.type = 'artifact_creation_reported'
       AND a.template_reference_name = ${postgresField('template_reference_name')}
       AND a.fingerprint = ${postgresField('artifact_fingerprint')} AND json_valid(a.body);
    UPDATE trail_events SET data = (data::jsonb || jsonb_build_object('environment_id', ${environmentOf(postgresField)}))::text
     WHERE type IN ${RUNNING_EVENTS} AND ${environmentOf(postgresField)} IS NOT NULL;
  `;

export const migration290: Migration = { id: '290-trail-event-reports', sql, postgres };
