import type { Statements } from './db.ts';

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
  data: Record<string, unknown>;
  timestamp: number;
}

export interface MembershipStore {
  record(orgId: number, event: MembershipEvent): Promise<void>;
  /** The org's membership events, oldest first. */
  events(orgId: number): Promise<MembershipEvent[]>;
}

export function membershipStore(sql: Statements): MembershipStore {
  return {
    async record(orgId, event) {
      await sql.run(
        'INSERT INTO membership_events (org_id, type, account, key_id, "user", data, timestamp) VALUES (?, ?, ?, ?, ?, ?, ?)',
        orgId,
        event.type,
        event.account,
        event.keyId,
        event.user,
        JSON.stringify(event.data),
        event.timestamp,
      );
    },
    async events(orgId) {
      return (
        await sql.all<{
          type: MembershipEvent['type'];
          account: string;
          key_id: string | null;
          user: string;
          data: string;
          timestamp: number;
        }>(
          'SELECT type, account, key_id, "user", data, timestamp FROM membership_events WHERE org_id = ? ORDER BY timestamp, id',
          orgId,
        )
      ).map((row) => ({
        type: row.type,
        account: row.account,
        keyId: row.key_id,
        user: row.user,
        data: JSON.parse(row.data) as Record<string, unknown>,
        timestamp: row.timestamp,
      }));
    },
  };
}
