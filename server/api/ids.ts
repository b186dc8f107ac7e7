// Record identifiers in the hosted service's format (reference §1.5).
import { randomUUID } from 'node:crypto';

/** Lowercase hex in 8-4-4-4-8 groups: a UUID with its last group cut to 8 characters. */
export function newId(): string {
  return randomUUID().slice(0, 32);
}
