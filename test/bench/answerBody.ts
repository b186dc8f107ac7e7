// The benchmarks read the server's answers as the wire contract's record types (test/api/answers.ts):
// the harness holds every answer it receives to the contract (test/api/contract.ts) and fails the
// request otherwise, so a body that arrives here has the contract's shape.
import type { Reply } from '../api/harness.ts';

/** The body of an answer the harness checked, as the contract's type for it. */
export function bodyOf<T>(reply: Reply<unknown>): T {
  return reply.body as T;
}
