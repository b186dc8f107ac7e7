import { decodeEach, placeholderList, rowsByKey, type Statements, type Unreadable } from './db.ts';

export interface PolicyVersion {
  version: number;
  policyYaml: string;
  comment: string;
  createdBy: string;
  timestamp: number;
}

export interface PolicyEvent {
  type: string;
  timestamp: number;
  user: string;
  data: Record<string, unknown>;
}

export interface Policy {
  id: number;
  name: string;
  description: string;
  type: string;
  createdBy: string;
  createdAt: number;
  lastModifiedAt: number;
  archived: boolean;
  /** Oldest first. */
  versions: PolicyVersion[];
  events: PolicyEvent[];
  consumingEnvs: string[];
}

/** A policy's current version, as evaluation needs it. */
export interface CurrentPolicy {
  id: number;
  name: string;
  version: number;
  policyYaml: string;
}

export interface NewPolicyVersion {
  policyYaml: string;
  comment: string;
  createdBy: string;
  /** Control identifiers the rules name in `for_control`. */
  controls: readonly string[];
}

export interface PolicyStore {
  byName(orgId: number, name: string): Promise<Policy | undefined>;
  /** Live policies by name; a row that cannot be decoded is marked unreadable. */
  list(orgId: number): Promise<Array<Policy | Unreadable>>;
  create(
    orgId: number,
    name: string,
    description: string,
    type: string,
    first: NewPolicyVersion,
    now: number,
  ): Promise<number>;
  /** Adds a version and its history event; returns the new version number. */
  addVersion(policyId: number, version: NewPolicyVersion, now: number): Promise<number>;
  setDescription(policyId: number, description: string, now: number): Promise<void>;
  /** Current versions of live policies of an org, by name; unknown names are left out. */
  currentByNames(orgId: number, names: readonly string[]): Promise<CurrentPolicy[]>;
  /** Current versions of the policies attached to an environment, in attach order. */
  attachedTo(environmentId: number): Promise<CurrentPolicy[]>;
  /** Attaches policies not yet attached (keeping order) and records the history event. */
  attach(
    environmentId: number,
    environmentName: string,
    policyIds: readonly number[],
    user: string,
    now: number,
  ): Promise<void>;
  detach(
    environmentId: number,
    environmentName: string,
    policyIds: readonly number[],
    user: string,
    now: number,
  ): Promise<void>;
  /** Archives a live policy (its name is free again) and records the history event. */
  archive(policyId: number, user: string, now: number): Promise<void>;
  /** The most recently archived policy of that name, if any. */
  lastArchived(orgId: number, name: string): Promise<Policy | undefined>;
  /** Makes an archived policy live again and records the history event. */
  unarchive(policyId: number, user: string, now: number): Promise<void>;
  /** Names of live policies whose current version names the control in `for_control`. */
  referencingControl(orgId: number, identifier: string): Promise<string[]>;
}

interface PolicyRow {
  id: number;
  name: string;
  description: string;
  type: string;
  created_by: string;
  created_at: number;
  last_modified_at: number;
  archived_at: number | null;
  [column: string]: unknown;
}

interface VersionRow {
  version: number;
  policy_yaml: string;
  comment: string;
  created_by: string;
  timestamp: number;
  [column: string]: unknown;
}

// Current version of each live policy: the highest version number.
const CURRENT = `
  SELECT p.id, p.name, v.version, v.policy_yaml, v.controls FROM policies p
  JOIN policy_versions v ON v.policy_id = p.id AND v.version = (SELECT max(version) FROM policy_versions WHERE policy_id = p.id)`;

interface EventRow {
  policy_id: number;
  type: string;
  timestamp: number;
  user: string;
  data: string;
  [column: string]: unknown;
}

export function policyStore(sql: Statements): PolicyStore {
  /**
   * A decoder for these policy rows, their versions, events and consuming environments read in one
   * statement each for all of them (not three per policy); it throws for a policy with a row that
   * cannot be decoded.
   */
  async function policyReader(rows: readonly PolicyRow[]): Promise<(row: PolicyRow) => Policy> {
    const ids = rows.map((row) => String(row.id));
    const inPolicies = (keys: string[]): string => `policy_id IN (${placeholderList(keys.length)})`;
    // One statement after another: inside a transaction on PostgreSQL they share one connection,
    // which runs one query at a time (node-postgres deprecates queueing them).
    const versions = await rowsByKey(
      ids,
      (keys) =>
        sql.all<VersionRow & { policy_id: number }>(
          `SELECT * FROM policy_versions WHERE ${inPolicies(keys)} ORDER BY policy_id, version`,
          ...keys.map(Number),
        ),
      (v) => String(v.policy_id),
      (v): PolicyVersion => ({
        version: v.version,
        policyYaml: v.policy_yaml,
        comment: v.comment,
        createdBy: v.created_by,
        timestamp: v.timestamp,
      }),
    );
    const events = await rowsByKey(
      ids,
      (keys) =>
        sql.all<EventRow>(
          `SELECT * FROM policy_events WHERE ${inPolicies(keys)} ORDER BY policy_id, id`,
          ...keys.map(Number),
        ),
      (e) => String(e.policy_id),
      (e): PolicyEvent => ({
        type: e.type,
        timestamp: e.timestamp,
        user: e.user,
        data: JSON.parse(e.data) as Record<string, unknown>,
      }),
    );
    const consumers = await rowsByKey(
      ids,
      (keys) =>
        sql.all<{ policy_id: number; name: string }>(
          `SELECT ep.policy_id, e.name FROM environment_policies ep JOIN environments e ON e.id = ep.environment_id
             WHERE ep.${inPolicies(keys)} AND e.archived_at IS NULL ORDER BY ep.policy_id, e.name`,
          ...keys.map(Number),
        ),
      (e) => String(e.policy_id),
      (e) => e.name,
    );
    const present = <T>(value: T[] | Error | undefined): T[] => {
      if (value instanceof Error) throw value;
      return value ?? [];
    };
    return (row) => ({
      id: row.id,
      name: row.name,
      description: row.description,
      type: row.type,
      createdBy: row.created_by,
      createdAt: row.created_at,
      lastModifiedAt: row.last_modified_at,
      archived: row.archived_at !== null,
      versions: present(versions.get(String(row.id))),
      events: present(events.get(String(row.id))),
      consumingEnvs: present(consumers.get(String(row.id))),
    });
  }

  async function policyOf(row: PolicyRow | undefined): Promise<Policy | undefined> {
    return row === undefined ? undefined : (await policyReader([row]))(row);
  }

  async function currentVersion(policyId: number): Promise<number> {
    return (await sql.get<{ v: number }>(
      'SELECT max(version) AS v FROM policy_versions WHERE policy_id = ?',
      policyId,
    ))!.v;
  }

  async function insertVersion(
    policyId: number,
    version: number,
    content: NewPolicyVersion,
    now: number,
  ): Promise<void> {
    await sql.run(
      'INSERT INTO policy_versions (policy_id, version, policy_yaml, comment, created_by, timestamp, controls) VALUES (?, ?, ?, ?, ?, ?, ?)',
      policyId,
      version,
      content.policyYaml,
      content.comment,
      content.createdBy,
      now,
      JSON.stringify(content.controls),
    );
    // Beside the JSON, so the policies referencing a control are found by index (migration 204).
    for (const identifier of new Set(content.controls))
      await sql.run(
        'INSERT INTO policy_controls (policy_id, version, identifier) VALUES (?, ?, ?)',
        policyId,
        version,
        identifier,
      );
  }

  async function addEvent(
    policyId: number,
    type: string,
    user: string,
    data: Record<string, unknown>,
    now: number,
  ): Promise<void> {
    await sql.run(
      'INSERT INTO policy_events (policy_id, type, timestamp, "user", data) VALUES (?, ?, ?, ?, ?)',
      policyId,
      type,
      now,
      user,
      JSON.stringify(data),
    );
  }

  function toCurrent(row: { id: number; name: string; version: number; policy_yaml: string }): CurrentPolicy {
    return { id: row.id, name: row.name, version: row.version, policyYaml: row.policy_yaml };
  }

  return {
    async byName(orgId, name) {
      const row = await sql.get<PolicyRow>(
        'SELECT * FROM policies WHERE org_id = ? AND name = ? AND archived_at IS NULL',
        orgId,
        name,
      );
      return await policyOf(row);
    },
    async list(orgId) {
      // In name order on the live-name index.
      const rows = await sql.all<PolicyRow>(
        'SELECT * FROM policies WHERE org_id = ? AND archived_at IS NULL ORDER BY name',
        orgId,
      );
      return decodeEach(rows, await policyReader(rows));
    },
    async create(orgId, name, description, type, first, now) {
      const id = (await sql.get<{ id: number }>(
        'INSERT INTO policies (org_id, name, description, type, created_by, created_at, last_modified_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id',
        orgId,
        name,
        description,
        type,
        first.createdBy,
        now,
        now,
      ))!.id;
      await insertVersion(id, 1, first, now);
      await addEvent(id, 'policy_created', first.createdBy, { version: 1 }, now);
      return id;
    },
    async addVersion(policyId, content, now) {
      const version = (await currentVersion(policyId)) + 1;
      await insertVersion(policyId, version, content, now);
      await addEvent(policyId, 'policy_version_created', content.createdBy, { version }, now);
      await sql.run('UPDATE policies SET last_modified_at = ? WHERE id = ?', now, policyId);
      return version;
    },
    async archive(policyId, user, now) {
      await sql.run('UPDATE policies SET archived_at = ?, last_modified_at = ? WHERE id = ?', now, now, policyId);
      await addEvent(policyId, 'policy_archived', user, { version: await currentVersion(policyId) }, now);
    },
    async lastArchived(orgId, name) {
      const row = await sql.get<PolicyRow>(
        'SELECT * FROM policies WHERE org_id = ? AND name = ? AND archived_at IS NOT NULL ORDER BY archived_at DESC, id DESC LIMIT 1',
        orgId,
        name,
      );
      return await policyOf(row);
    },
    async unarchive(policyId, user, now) {
      await sql.run('UPDATE policies SET archived_at = NULL, last_modified_at = ? WHERE id = ?', now, policyId);
      await addEvent(policyId, 'policy_unarchived', user, { version: await currentVersion(policyId) }, now);
    },
    async setDescription(policyId, description, now) {
      await sql.run(
        'UPDATE policies SET description = ?, last_modified_at = ? WHERE id = ?',
        description,
        now,
        policyId,
      );
    },
    async currentByNames(orgId, names) {
      // Only the named policies, each found on the live-name index; the names travel as one JSON array.
      const byName = new Map(
        (
          await sql.all<{ id: number; name: string; version: number; policy_yaml: string }>(
            `${CURRENT} WHERE p.org_id = ? AND p.archived_at IS NULL AND p.name IN (SELECT value FROM json_each(?))`,
            orgId,
            JSON.stringify(names),
          )
        ).map((row) => [row.name, toCurrent(row)]),
      );
      return names.flatMap((name) => byName.get(name) ?? []);
    },
    async attachedTo(environmentId) {
      return (
        await sql.all<{ id: number; name: string; version: number; policy_yaml: string }>(
          `${CURRENT} JOIN environment_policies ep ON ep.policy_id = p.id
           WHERE ep.environment_id = ? AND p.archived_at IS NULL ORDER BY ep.position`,
          environmentId,
        )
      ).map(toCurrent);
    },
    async attach(environmentId, environmentName, policyIds, user, now) {
      let position =
        (await sql.get<{ n: number | null }>(
          'SELECT max(position) AS n FROM environment_policies WHERE environment_id = ?',
          environmentId,
        ))!.n ?? -1;
      for (const policyId of policyIds) {
        position += 1;
        const added = (
          await sql.run(
            'INSERT INTO environment_policies (environment_id, policy_id, position) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
            environmentId,
            policyId,
            position,
          )
        ).changes;
        if (added > 0)
          await addEvent(
            policyId,
            'policy_attached',
            user,
            { version: await currentVersion(policyId), environment: environmentName },
            now,
          );
      }
    },
    async detach(environmentId, environmentName, policyIds, user, now) {
      for (const policyId of policyIds) {
        const removed = (
          await sql.run(
            'DELETE FROM environment_policies WHERE environment_id = ? AND policy_id = ?',
            environmentId,
            policyId,
          )
        ).changes;
        if (removed > 0)
          await addEvent(
            policyId,
            'policy_detached',
            user,
            { version: await currentVersion(policyId), environment: environmentName },
            now,
          );
      }
    },
    async referencingControl(orgId, identifier) {
      // From the versions naming the control (an index range), those that are their live policy's current one.
      return (
        await sql.all<{ name: string }>(
          `SELECT DISTINCT p.name FROM policy_controls c JOIN policies p ON p.id = c.policy_id
            WHERE c.identifier = ? AND p.org_id = ? AND p.archived_at IS NULL
              AND c.version = (SELECT max(version) FROM policy_versions WHERE policy_id = c.policy_id)
            ORDER BY p.name`,
          identifier,
          orgId,
        )
      ).map((row) => row.name);
    },
  };
}
