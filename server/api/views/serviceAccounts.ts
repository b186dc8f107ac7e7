// Service accounts, their API keys and the membership audit log as the API answers them
// (reference §2.16, §2.18). A key's secret is shown only in the answer that issued it.
import type { ApiKey, IssuedApiKey, MembershipEvent, ServiceAccount } from '../../../shared/contract/types.ts';
import type { MembershipEvent as MembershipRecord } from '../store/membership.ts';
import type { ServiceAccount as AccountRow, ServiceAccountKey } from '../store/serviceAccounts.ts';

export function serviceAccountView(account: AccountRow): ServiceAccount {
  return {
    name: account.name,
    display_name: account.name,
    privilege: account.privilege,
    creating_user_id: account.createdBy,
    description: account.description,
    created_at: account.createdAt,
    last_modified_at: account.lastModifiedAt,
  };
}

/** A key as listed: revoked once its revocation time (a rotation's grace period may end later) has come. */
export function apiKeyView(key: ServiceAccountKey, now: number): ApiKey {
  return {
    id: key.id,
    description: key.description,
    created_at: key.createdAt,
    expires_at: key.expiresAt,
    revoked: key.revokedAt !== null && key.revokedAt <= now,
    revoked_at: key.revokedAt,
  };
}

export function issuedApiKeyView(record: ServiceAccountKey, secret: string, now: number): IssuedApiKey {
  return { ...apiKeyView(record, now), key: secret };
}

export function membershipEventView(event: MembershipRecord, source: string): MembershipEvent {
  return {
    type: event.type,
    timestamp: event.timestamp,
    user: event.user,
    service_account: event.account,
    api_key_id: event.keyId,
    role: event.role,
    source,
    data: event.data,
  };
}
