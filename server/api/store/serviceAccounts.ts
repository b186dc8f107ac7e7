import type { Statements } from './db.ts';
import type { Role } from '../principal.ts';

export interface ServiceAccount {
  id: string;
  orgId: number;
  name: string;
  description: string;
  privilege: Role;
  createdBy: string;
  createdAt: number;
  lastModifiedAt: number;
}

export interface ServiceAccountKey {
  id: string;
  accountId: string;
  description: string;
  createdAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
}

/** Who a service-account key authenticates as. */
export interface KeyPrincipal {
  accountId: string;
  accountName: string;
  orgName: string;
  privilege: Role;
}

export interface ServiceAccountStore {
  create(account: ServiceAccount): Promise<void>;
  list(orgId: number): Promise<ServiceAccount[]>;
  byName(orgId: number, name: string): Promise<ServiceAccount | undefined>;
  update(id: string, changes: { description?: string; privilege?: Role }, now: number): Promise<void>;
  remove(id: string): Promise<void>;
  createKey(key: ServiceAccountKey, keyHash: string): Promise<void>;
  keys(accountId: string): Promise<ServiceAccountKey[]>;
  keyById(accountId: string, keyId: string): Promise<ServiceAccountKey | undefined>;
  /** Revokes the key at `at` (a future time leaves it usable until then). */
  revokeKey(keyId: string, at: number): Promise<void>;
  principalForKeyHash(keyHash: string, now: number): Promise<KeyPrincipal | undefined>;
}

interface AccountRow {
  id: string;
  org_id: number;
  name: string;
  description: string;
  privilege: Role;
  created_by: string;
  created_at: number;
  last_modified_at: number;
  [column: string]: unknown;
}

interface KeyRow {
  id: string;
  account_id: string;
  description: string;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  [column: string]: unknown;
}

function toAccount(row: AccountRow): ServiceAccount {
  return {
    id: row.id,
    orgId: row.org_id,
    name: row.name,
    description: row.description,
    privilege: row.privilege,
    createdBy: row.created_by,
    createdAt: row.created_at,
    lastModifiedAt: row.last_modified_at,
  };
}

function toKey(row: KeyRow): ServiceAccountKey {
  return {
    id: row.id,
    accountId: row.account_id,
    description: row.description,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
  };
}

export function serviceAccountStore(sql: Statements): ServiceAccountStore {
  return {
    async create(account) {
      await sql.run(
        'INSERT INTO service_accounts (id, org_id, name, description, privilege, created_by, created_at, last_modified_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        account.id,
        account.orgId,
        account.name,
        account.description,
        account.privilege,
        account.createdBy,
        account.createdAt,
        account.lastModifiedAt,
      );
    },
    async list(orgId) {
      return (await sql.all<AccountRow>('SELECT * FROM service_accounts WHERE org_id = ? ORDER BY name', orgId)).map(
        toAccount,
      );
    },
    async byName(orgId, name) {
      const row = await sql.get<AccountRow>(
        'SELECT * FROM service_accounts WHERE org_id = ? AND name = ?',
        orgId,
        name,
      );
      return row === undefined ? undefined : toAccount(row);
    },
    async update(id, changes, now) {
      if (changes.description !== undefined)
        await sql.run('UPDATE service_accounts SET description = ? WHERE id = ?', changes.description, id);
      if (changes.privilege !== undefined)
        await sql.run('UPDATE service_accounts SET privilege = ? WHERE id = ?', changes.privilege, id);
      await sql.run('UPDATE service_accounts SET last_modified_at = ? WHERE id = ?', now, id);
    },
    async remove(id) {
      await sql.run('DELETE FROM service_accounts WHERE id = ?', id);
    },
    async createKey(key, keyHash) {
      await sql.run(
        'INSERT INTO service_account_keys (id, account_id, key_hash, description, created_at, expires_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, NULL)',
        key.id,
        key.accountId,
        keyHash,
        key.description,
        key.createdAt,
        key.expiresAt,
      );
    },
    async keys(accountId) {
      return (
        await sql.all<KeyRow>(
          'SELECT * FROM service_account_keys WHERE account_id = ? ORDER BY created_at, id',
          accountId,
        )
      ).map(toKey);
    },
    async keyById(accountId, keyId) {
      const row = await sql.get<KeyRow>(
        'SELECT * FROM service_account_keys WHERE account_id = ? AND id = ?',
        accountId,
        keyId,
      );
      return row === undefined ? undefined : toKey(row);
    },
    async revokeKey(keyId, at) {
      await sql.run(
        'UPDATE service_account_keys SET revoked_at = ? WHERE id = ? AND (revoked_at IS NULL OR revoked_at > ?)',
        at,
        keyId,
        at,
      );
    },
    async principalForKeyHash(keyHash, now) {
      const row = await sql.get<{
        account_id: string;
        account: string;
        org: string;
        privilege: Role;
        expires_at: number | null;
        revoked_at: number | null;
      }>(
        `SELECT a.id AS account_id, a.name AS account, o.name AS org, a.privilege, k.expires_at, k.revoked_at
           FROM service_account_keys k JOIN service_accounts a ON a.id = k.account_id JOIN orgs o ON o.id = a.org_id
          WHERE k.key_hash = ?`,
        keyHash,
      );
      if (row === undefined) return undefined;
      if (row.revoked_at !== null && row.revoked_at <= now) return undefined;
      if (row.expires_at !== null && row.expires_at <= now) return undefined;
      return { accountId: row.account_id, accountName: row.account, orgName: row.org, privilege: row.privilege };
    },
  };
}
