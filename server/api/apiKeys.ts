// API keys: made here, and kept only as their hashes (a stored key cannot be read back).
import { createHash, randomBytes } from 'node:crypto';

/** A fresh API key: 32 random bytes in hex, so it never starts with '-' when passed as a flag. */
export function newApiKey(): string {
  return randomBytes(32).toString('hex');
}

/** What the store keeps of a key: its sha256, in hex. */
export function keyHash(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

// A principal's id (http/auth.ts): what its settings are kept under, stable whatever it is named.

/** The key of every org (`--api-key`, CEV_API_KEY or the generated one), whichever key it is. */
export const SERVER_ADMIN_ID = 'admin';

/** A key of --config, by its hash: its place in the file may change, its name (api-key-N) with it. */
export function configuredKeyId(hash: string): string {
  return `key:${createHash('sha256').update(`principal ${hash}`).digest('hex').slice(0, 32)}`;
}

/** A service account, by its row id: names repeat across orgs and come back after a delete. */
export function accountPrincipalId(accountId: string): string {
  return `account:${accountId}`;
}
