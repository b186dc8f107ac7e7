// The server's faults (5xx): what the storage, the database or the server itself can fail with,
// each answered with a status and a message that says what happened and what to do; and the
// database errors that are the request's doing (a concurrent duplicate, text no column can hold).
// Errors come from node:fs (code), node:sqlite (errcode, the SQLite result code) and pg (code, the
// SQLSTATE), told apart here so that neither the store's callers nor http need know the engines.

export interface Fault {
  status: 503 | 507 | 500;
  message: string;
  /** Seconds after which a retry may succeed (Retry-After), for faults that pass by themselves. */
  retryAfter?: number;
}

/** How long a write waits for a database that another process or transaction holds locked. */
export const BUSY_WAIT_MS = 5_000;

export const NO_SPACE =
  'The server has no space left to store the evidence: its disk is full, so nothing of this request was stored. Free space on the server (its data or evidence directory), then retry';
export const READ_ONLY =
  'The server cannot store the evidence: its storage is read-only, so nothing of this request was stored. Make the data or evidence directory (or the database) writable, then retry';
export const STORAGE_FAILED =
  'The server could not read or write its storage (an I/O error), so nothing of this request was stored. Check the disk behind the data or evidence directory, then retry';
export const DATABASE_BUSY = `The database is busy: another process or transaction held it locked for over ${BUSY_WAIT_MS / 1000} seconds, so nothing of this request was stored. Retry the request shortly`;
export const DATABASE_UNAVAILABLE = 'The database is unavailable; retry the request shortly';
export const STOPPING =
  'The server is stopping and takes no new requests; retry the request in a moment (another instance, or this one once restarted)';
export const UNEXPECTED =
  'The server failed unexpectedly and did not complete the request; its log has the details. Retry the request, and report the problem to the server operator if it persists';

const NO_SPACE_CODES = new Set(['ENOSPC', 'EDQUOT', '53100']);
const READ_ONLY_CODES = new Set(['EROFS', '25006']);
const STORAGE_CODES = new Set(['EIO', 'EACCES', 'EPERM']);
const BUSY_CODES = new Set(['55P03', '57014']);

// SQLite primary result codes (the low byte of an extended one).
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const SQLITE_READONLY = 8;
const SQLITE_IOERR = 10;
const SQLITE_FULL = 13;

function sqliteCodeOf(error: Error): number | undefined {
  const errcode = (error as { errcode?: unknown }).errcode;
  return typeof errcode === 'number' ? errcode & 0xff : undefined;
}

/** The fault of a storage or database error, or undefined when `error` is none of them. */
export function storageFaultOf(error: unknown): Fault | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  const sqlite = sqliteCodeOf(error);
  if (sqlite === SQLITE_FULL || (typeof code === 'string' && NO_SPACE_CODES.has(code)))
    return { status: 507, message: NO_SPACE };
  if (sqlite === SQLITE_READONLY || (typeof code === 'string' && READ_ONLY_CODES.has(code)))
    return { status: 503, message: READ_ONLY };
  if (sqlite === SQLITE_BUSY || sqlite === SQLITE_LOCKED || (typeof code === 'string' && BUSY_CODES.has(code))) {
    return { status: 503, message: DATABASE_BUSY, retryAfter: 1 };
  }
  // Checked after the others: a disk that is full can also report an I/O error.
  if (sqlite === SQLITE_IOERR || (typeof code === 'string' && STORAGE_CODES.has(code)))
    return { status: 503, message: STORAGE_FAILED };
  return undefined;
}

/** Whether SQLite refused because another connection holds the lock (wait and try again). */
export function isBusy(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const sqlite = sqliteCodeOf(error);
  return sqlite === SQLITE_BUSY || sqlite === SQLITE_LOCKED;
}

/** A unique or primary-key violation (SQLite's, or PostgreSQL's SQLSTATE 23505): a concurrent duplicate create (409, retryable). */
export function isUniqueViolation(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const errcode = (error as { errcode?: unknown }).errcode;
  if ((error as { code?: unknown }).code === '23505') return true;
  return errcode === 2067 || errcode === 1555 || /UNIQUE constraint failed/.test(error.message);
}

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENOENT',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|connection error|Client was closed|not queryable/i;

/** An error that says the database cannot be reached now (down, restarting, out of connections), not that the request was wrong. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
  if (error instanceof AggregateError) return error.errors.some(isDatabaseUnavailable);
  return UNAVAILABLE_MESSAGES.test(error.message);
}

/** PostgreSQL's refusal of a NUL character in text (SQLSTATE 22021), which no stored name or value can contain: the request's fault. */
export function isUnstorableText(error: unknown): boolean {
  return error instanceof Error && (error as { code?: unknown }).code === '22021';
}
