import { withinWindow, type Param, type Statements } from './db.ts';

/** A change to who may use an org: a service account or one of its keys (reference §2.18). */
export interface MembershipEvent {
  type:
    | 'service_account_created'
    | 'service_account_updated'
    | 'service_account_deleted'
    | 'api_key_created'
    | 'api_key_revoked';
  account: string;
  keyId: string | null;
  user: string;
  /** The account's privilege once the event happened; null where an event kept before did not say (migration 282). */
  role: string | null;
  data: Record<string, unknown>;
  timestamp: number;
}

/** Which events of the log, in which order, and which page of them (reference §8.4). */
export interface MembershipQuery {
  /** A part of the account's name, the user's or the key's id, case aside (ASCII). */
  search?: string;
  types?: readonly string[];
  role?: string;
  from?: number;
  to?: number;
  sortBy: 'timestamp' | 'event_type' | 'user' | 'service_account';
  descending: boolean;
  /** -1: all of them. */
  limit: number;
  offset: number;
}

export interface MembershipStore {
  record(orgId: number, event: MembershipEvent): Promise<void>;
  /** The org's events the query selects, in its order (then the order they happened in), and how many there are. */
  page(orgId: number, query: MembershipQuery): Promise<{ total: number; events: MembershipEvent[] }>;
}

const SORTED_BY: Record<MembershipQuery['sortBy'], string> = {
  timestamp: 'timestamp',
  event_type: 'type',
  user: '"user"',
  service_account: 'account',
};

interface EventRow {
  type: MembershipEvent['type'];
  account: string;
  key_id: string | null;
  user: string;
  role: string | null;
  data: string;
  timestamp: number;
  [column: string]: unknown;
}

export function membershipStore(sql: Statements): MembershipStore {
  return {
    async record(orgId, event) {
      await sql.run(
        'INSERT INTO membership_events (org_id, type, account, key_id, "user", role, data, timestamp) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        orgId,
        event.type,
        event.account,
        event.keyId,
        event.user,
        event.role,
        JSON.stringify(event.data),
        event.timestamp,
      );
    },
    async page(orgId, query) {
      const where = ['org_id = ?'];
      const params: Param[] = [orgId];
      if (query.search !== undefined && query.search !== '') {
        const needle = query.search.toLowerCase();
        where.push(
          `(instr(lower(account), ?) > 0 OR instr(lower("user"), ?) > 0 OR instr(lower(coalesce(key_id, '')), ?) > 0)`,
        );
        params.push(needle, needle, needle);
      }
      if (query.types !== undefined && query.types.length > 0) {
        where.push(`type IN (${query.types.map(() => '?').join(', ')})`);
        params.push(...query.types);
      }
      if (query.role !== undefined) {
        where.push('role = ?');
        params.push(query.role);
      }
      withinWindow(where, params, 'timestamp', query);
      const condition = where.join(' AND ');
      const total = await sql.get<{ n: number }>(
        `SELECT count(*) AS n FROM membership_events WHERE ${condition}`,
        ...params,
      );
      const direction = query.descending ? 'DESC' : 'ASC';
      const rows = await sql.all<EventRow>(
        `SELECT type, account, key_id, "user", role, data, timestamp FROM membership_events WHERE ${condition}
         ORDER BY ${SORTED_BY[query.sortBy]} ${direction}, id ${direction} LIMIT ? OFFSET ?`,
        ...params,
        query.limit,
        query.offset,
      );
      return {
        total: Number(total!.n),
        events: rows.map((row) => ({
          type: row.type,
          account: row.account,
          keyId: row.key_id,
          user: row.user,
          role: row.role,
          data: JSON.parse(row.data) as Record<string, unknown>,
          timestamp: row.timestamp,
        })),
      };
    },
  };
}
