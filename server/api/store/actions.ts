import { decodeEach, type Statements, type Unreadable } from './db.ts';

export interface ActionTarget {
  type: string;
  [field: string]: unknown;
}

export interface Action {
  id: number;
  number: number;
  name: string;
  /** `environment` or `flow`: which resources and triggers it is about. */
  type: string;
  targets: ActionTarget[];
  triggers: string[];
  environments: string[];
  flows: string[];
  createdBy: string;
  createdAt: number;
  lastModifiedAt: number;
  isFailing: boolean;
  lastSuccessTimestamp: number | null;
  lastFailureTimestamp: number | null;
}

/** What a create or update sets: the action's own fields, not its bookkeeping. */
export type ActionInput = Pick<Action, 'name' | 'type' | 'targets' | 'triggers' | 'environments' | 'flows'>;

export interface ActionStore {
  /** Live actions by number; a row that cannot be decoded is marked unreadable. */
  list(orgId: number): Promise<Array<Action | Unreadable>>;
  byNumber(orgId: number, number: number): Promise<Action | undefined>;
  byName(orgId: number, name: string): Promise<Action | undefined>;
  /** Creates the action with the next number; returns the number. */
  create(orgId: number, input: ActionInput, createdBy: string, now: number): Promise<number>;
  /** Writes every field of the input over the action's, its name too. */
  update(id: number, input: ActionInput, now: number): Promise<void>;
  remove(id: number, now: number): Promise<void>;
  /** Live actions of an org with this trigger for this environment (kind `environment`) or flow (`flow`). */
  triggered(orgId: number, kind: 'environment' | 'flow', resourceName: string, trigger: string): Promise<Action[]>;
  /** Keeps actions watching an environment or flow when it is renamed. */
  renameWatched(
    orgId: number,
    kind: 'environment' | 'flow',
    oldName: string,
    newName: string,
    now: number,
  ): Promise<void>;
  /** Bookkeeping of one delivery's final outcome (writes only: it fits a concurrent transaction). */
  recordOutcome(orgId: number, number: number, ok: boolean, timestamp: number): Promise<void>;
}

export interface ActionRow {
  id: number;
  number: number;
  name: string;
  type: string;
  targets: string;
  triggers: string;
  environments: string;
  flows: string;
  created_by: string;
  created_at: number;
  last_modified_at: number;
  is_failing: number;
  last_success_timestamp: number | null;
  last_failure_timestamp: number | null;
  [column: string]: unknown;
}

export function toAction(row: ActionRow): Action {
  return {
    id: row.id,
    number: row.number,
    name: row.name,
    type: row.type,
    targets: JSON.parse(row.targets) as ActionTarget[],
    triggers: JSON.parse(row.triggers) as string[],
    environments: JSON.parse(row.environments) as string[],
    flows: JSON.parse(row.flows) as string[],
    createdBy: row.created_by,
    createdAt: row.created_at,
    lastModifiedAt: row.last_modified_at,
    isFailing: row.is_failing === 1,
    lastSuccessTimestamp: row.last_success_timestamp,
    lastFailureTimestamp: row.last_failure_timestamp,
  };
}

/** The two lists an action watches, as action_watches (migration 204) keys them. */
const WATCHED = { environment: 'environments', flow: 'flows' } as const;

export function actionStore(sql: Statements): ActionStore {
  /** Rewrites what the action watches, beside its JSON, so lookups by watched name use an index. */
  async function writeWatches(id: number, orgId: number, input: Pick<ActionInput, 'environments' | 'flows'>) {
    await sql.run('DELETE FROM action_watches WHERE action_id = ?', id);
    for (const [kind, column] of Object.entries(WATCHED)) {
      for (const name of new Set(input[column]))
        await sql.run(
          'INSERT INTO action_watches (action_id, org_id, kind, name) VALUES (?, ?, ?, ?)',
          id,
          orgId,
          kind,
          name,
        );
    }
  }

  /** Live actions of the org watching this environment or flow by name. */
  const WATCHING = `SELECT * FROM actions WHERE id IN (SELECT action_id FROM action_watches WHERE org_id = ? AND kind = ? AND name = ?)
                      AND deleted_at IS NULL`;

  return {
    async list(orgId) {
      return decodeEach(
        // In number order on the index of live actions (migration 204).
        await sql.all<ActionRow>(
          'SELECT * FROM actions WHERE org_id = ? AND deleted_at IS NULL ORDER BY number',
          orgId,
        ),
        toAction,
      );
    },
    async byNumber(orgId, number) {
      const row = await sql.get<ActionRow>(
        'SELECT * FROM actions WHERE org_id = ? AND number = ? AND deleted_at IS NULL',
        orgId,
        number,
      );
      return row === undefined ? undefined : toAction(row);
    },
    async byName(orgId, name) {
      const row = await sql.get<ActionRow>(
        'SELECT * FROM actions WHERE org_id = ? AND name = ? AND deleted_at IS NULL',
        orgId,
        name,
      );
      return row === undefined ? undefined : toAction(row);
    },
    async create(orgId, input, createdBy, now) {
      const number =
        ((await sql.get<{ n: number | null }>('SELECT max(number) AS n FROM actions WHERE org_id = ?', orgId))!.n ??
          0) + 1;
      const { id } = (await sql.get<{ id: number }>(
        `INSERT INTO actions (org_id, number, name, type, targets, triggers, environments, flows, created_by, created_at, last_modified_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
        orgId,
        number,
        input.name,
        input.type,
        JSON.stringify(input.targets),
        JSON.stringify(input.triggers),
        JSON.stringify(input.environments),
        JSON.stringify(input.flows),
        createdBy,
        now,
        now,
      ))!;
      await writeWatches(id, orgId, input);
      return number;
    },
    async update(id, input, now) {
      await sql.run(
        'UPDATE actions SET name = ?, type = ?, targets = ?, triggers = ?, environments = ?, flows = ?, last_modified_at = ? WHERE id = ?',
        input.name,
        input.type,
        JSON.stringify(input.targets),
        JSON.stringify(input.triggers),
        JSON.stringify(input.environments),
        JSON.stringify(input.flows),
        now,
        id,
      );
      const { org_id } = (await sql.get<{ org_id: number }>('SELECT org_id FROM actions WHERE id = ?', id))!;
      await writeWatches(id, org_id, input);
    },
    async remove(id, now) {
      await sql.run('UPDATE actions SET deleted_at = ? WHERE id = ?', now, id);
      await sql.run('DELETE FROM action_watches WHERE action_id = ?', id);
    },
    async triggered(orgId, kind, resourceName, trigger) {
      return (
        await sql.all<ActionRow>(
          `${WATCHING} AND type = ? AND EXISTS (SELECT 1 FROM json_each(actions.triggers) WHERE value = ?) ORDER BY number`,
          orgId,
          kind,
          resourceName,
          kind,
          trigger,
        )
      ).map(toAction);
    },
    async renameWatched(orgId, kind, oldName, newName, now) {
      const column = WATCHED[kind];
      for (const row of await sql.all<ActionRow>(WATCHING, orgId, kind, oldName)) {
        const names = (JSON.parse(row[column]) as string[]).map((name) => (name === oldName ? newName : name));
        await sql.run(
          `UPDATE actions SET ${column} = ?, last_modified_at = ? WHERE id = ?`,
          JSON.stringify(names),
          now,
          row.id,
        );
        await sql.run(
          'UPDATE action_watches SET name = ? WHERE action_id = ? AND kind = ? AND name = ?',
          newName,
          row.id,
          kind,
          oldName,
        );
      }
    },
    async recordOutcome(orgId, number, ok, timestamp) {
      if (ok) {
        await sql.write(
          'UPDATE actions SET is_failing = 0, last_success_timestamp = ? WHERE org_id = ? AND number = ?',
          timestamp,
          orgId,
          number,
        );
      } else {
        await sql.write(
          'UPDATE actions SET is_failing = 1, last_failure_timestamp = ? WHERE org_id = ? AND number = ?',
          timestamp,
          orgId,
          number,
        );
      }
    },
  };
}
