// Which API server the previews ask, learnt from the extension through a custom notification
// (never the command line, never logged: it carries the API key), and the one way they ask it:
// undici's fetch, bounded by a timeout, cancelled when the question is superseded.
import { fetch } from 'undici';
import type { ServerAccess as SentAccess } from '../../shared/protocol.ts';

/** The access the extension sent, its timeout resolved. */
export type ServerAccess = Required<SentAccess>;

const DEFAULT_TIMEOUT_MS = 4000;

/** The access a notification carries, or undefined for anything malformed. */
export function serverAccessOf(params: unknown): ServerAccess | undefined {
  if (params === null || typeof params !== 'object') return undefined;
  const { apiBase, org, key, timeoutMs } = params as Record<string, unknown>;
  if (typeof apiBase !== 'string' || typeof org !== 'string' || typeof key !== 'string' || apiBase === '' || org === '')
    return undefined;
  const timeout =
    typeof timeoutMs === 'number' && Number.isFinite(timeoutMs) && timeoutMs > 0 ? timeoutMs : DEFAULT_TIMEOUT_MS;
  return { apiBase: apiBase.replace(/\/+$/, ''), org, key, timeoutMs: timeout };
}

export type Answer<T> =
  | { kind: 'ok'; body: T }
  /** The server refused the text: how many field errors it found. */
  | { kind: 'invalid'; errors: number }
  | { kind: 'notFound' }
  /** Unreachable, slow, refused the key, or answered something else. */
  | { kind: 'notConnected' };

/** Asks `path` (under `{apiBase}`, with `{org}` filled in by the caller) and sorts the answer. Throws only when `signal` aborts. */
export async function ask<T>(
  access: ServerAccess,
  method: 'GET' | 'POST',
  path: string,
  body: unknown,
  signal: AbortSignal,
): Promise<Answer<T>> {
  try {
    const response = await fetch(`${access.apiBase}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${access.key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.any([signal, AbortSignal.timeout(access.timeoutMs)]),
    });
    const text = await response.text();
    if (response.status === 200) return { kind: 'ok', body: JSON.parse(text) as T };
    if (response.status === 404) return { kind: 'notFound' };
    if (response.status === 400) {
      const errors = (JSON.parse(text) as { errors?: Record<string, unknown> }).errors;
      return errors === undefined ? { kind: 'notConnected' } : { kind: 'invalid', errors: Object.keys(errors).length };
    }
    return { kind: 'notConnected' };
  } catch (error) {
    if (signal.aborted) throw error;
    return { kind: 'notConnected' };
  }
}

/** A path segment, escaped. */
export function segment(value: string): string {
  return encodeURIComponent(value);
}
