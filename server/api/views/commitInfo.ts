// A reported commit as every answer shows it (contract gitCommitInfo). Clients read sha1, author,
// message and timestamp with strict types (reference §1.11), while a reporter may leave all but
// the sha1 out or null: those read "" and 0, and the rest is shown as it was sent.
import type { GitCommitInfo } from '../../../shared/contract/types.ts';
import { isObject } from '../../../shared/text/values.ts';

/** The shortest sha1 a client accepts as naming a commit. */
const SHORTEST_SHA = 7;

/** The commit as answered, or null when none was reported or its sha1 cannot name one. */
export function commitInfoView(value: unknown): GitCommitInfo | null {
  if (!isObject(value) || typeof value.sha1 !== 'string' || value.sha1.length < SHORTEST_SHA) return null;
  const { sha1, author, message, timestamp, branch, url, ...rest } = value;
  return {
    sha1,
    message: typeof message === 'string' ? message : '',
    author: typeof author === 'string' ? author : '',
    branch: typeof branch === 'string' ? branch : null,
    timestamp: typeof timestamp === 'number' && Number.isFinite(timestamp) ? timestamp : 0,
    url: typeof url === 'string' ? url : null,
    ...rest,
  };
}

/** A reported repository as answered, or null when none was reported. */
export function repoInfoView(value: unknown): Record<string, unknown> | null {
  return isObject(value) ? value : null;
}
