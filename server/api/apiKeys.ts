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
