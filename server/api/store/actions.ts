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
  /** Bookkeeping of one delivery's final outcome. */
  recordOutcome(orgId: number, number: number, ok: boolean, timestamp: number): Promise<void>;
}

interface ActionRow {
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

function toAction(row: ActionRow): Action {
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

export function sqliteActionStore(sql: Statements): ActionStore {
  return {
    async list(orgId) {
      return decodeEach(
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
      await sql.run(
        `INSERT INTO actions (org_id, number, name, type, targets, triggers, environments, flows, created_by, created_at, last_modified_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
      );
      return number;
    },
    async update(id, input, now) {
      await sql.run(
        'UPDATE actions SET type = ?, targets = ?, triggers = ?, environments = ?, flows = ?, last_modified_at = ? WHERE id = ?',
        input.type,
        JSON.stringify(input.targets),
        JSON.stringify(input.triggers),
        JSON.stringify(input.environments),
        JSON.stringify(input.flows),
        now,
        id,
      );
    },
    async remove(id, now) {
      await sql.run('UPDATE actions SET deleted_at = ? WHERE id = ?', now, id);
    },
    async triggered(orgId, kind, resourceName, trigger) {
      const column = kind === 'environment' ? 'environments' : 'flows';
      return (
        await sql.all<ActionRow>(
          `SELECT * FROM actions WHERE org_id = ? AND deleted_at IS NULL AND type = ?
             AND EXISTS (SELECT 1 FROM json_each(actions.${column}) WHERE value = ?)
             AND EXISTS (SELECT 1 FROM json_each(actions.triggers) WHERE value = ?)
           ORDER BY number`,
          orgId,
          kind,
          resourceName,
          trigger,
        )
      ).map(toAction);
    },
    async renameWatched(orgId, kind, oldName, newName, now) {
      const column = kind === 'environment' ? 'environments' : 'flows';
      const watching = await sql.all<ActionRow>(
        `SELECT * FROM actions WHERE org_id = ? AND deleted_at IS NULL AND EXISTS (SELECT 1 FROM json_each(actions.${column}) WHERE value = ?)`,
        orgId,
        oldName,
      );
      for (const row of watching) {
        const names = (JSON.parse(row[column]) as string[]).map((name) => (name === oldName ? newName : name));
        await sql.run(
          `UPDATE actions SET ${column} = ?, last_modified_at = ? WHERE id = ?`,
          JSON.stringify(names),
          now,
          row.id,
        );
      }
    },
    async recordOutcome(orgId, number, ok, timestamp) {
      if (ok) {
        await sql.run(
          'UPDATE actions SET is_failing = 0, last_success_timestamp = ? WHERE org_id = ? AND number = ?',
          timestamp,
          orgId,
          number,
        );
      } else {
        await sql.run(
          'UPDATE actions SET is_failing = 1, last_failure_timestamp = ? WHERE org_id = ? AND number = ?',
          timestamp,
          orgId,
          number,
        );
      }
    },
  };
}
