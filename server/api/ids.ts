// Identifiers and clocks in the hosted service's formats (reference §1.5, §1.6).
import { randomBytes, randomUUID } from 'node:crypto';

/** Lowercase hex in 8-4-4-4-8 groups: a UUID with its last group cut to 8 characters. */
export function newId(): string {
  return randomUUID().slice(0, 32);
}

/** Epoch seconds with sub-second precision. */
export function nowSeconds(): number {
  return Date.now() / 1000;
}

/** A fresh API key: 32 random bytes in hex, so it never starts with '-' when passed as a flag. */
export function newApiKey(): string {
  return randomBytes(32).toString('hex');
}
