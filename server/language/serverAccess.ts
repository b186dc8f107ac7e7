// Which API server the previews ask, learnt from the extension through shared/protocol.ts's
// server access notification (never the command line, never logged: it carries the API key), and
// what an answer of the API client (shared/apiClient, the extension's own) means to a lens.
import { ApiClient } from '../../shared/apiClient/client.ts';
import { ApiError } from '../../shared/apiClient/errors.ts';

/** How long an answer may take before the server counts as not connected, unless the extension says. */
const DEFAULT_TIMEOUT_MS = 4000;

/** A client for the server a notification names, or undefined for anything malformed. */
export function previewClientOf(params: unknown): ApiClient | undefined {
  if (params === null || typeof params !== 'object') return undefined;
  const { apiBase, org, key, timeoutMs } = params as Record<string, unknown>;
  if (typeof apiBase !== 'string' || typeof org !== 'string' || typeof key !== 'string' || apiBase === '' || org === '')
    return undefined;
  const timeout =
    typeof timeoutMs === 'number' && Number.isFinite(timeoutMs) && timeoutMs > 0 ? timeoutMs : DEFAULT_TIMEOUT_MS;
  return new ApiClient({ baseUrl: apiBase, org, token: () => key, timeoutMs: timeout });
}

export type Answer<T> =
  | { kind: 'ok'; body: T }
  /** The server refused the text: how many field errors it found. */
  | { kind: 'invalid'; errors: number }
  | { kind: 'notFound' }
  /** Unreachable, slow, refused the key, or answered something else. */
  | { kind: 'notConnected' };

/** Sorts what a call of the client answers. Throws only when `signal` aborted it: a newer question replaced it. */
export async function answerOf<T>(call: Promise<T>, signal: AbortSignal): Promise<Answer<T>> {
  try {
    return { kind: 'ok', body: await call };
  } catch (error) {
    if (signal.aborted) throw error;
    if (!(error instanceof ApiError)) return { kind: 'notConnected' };
    if (error.status === 404) return { kind: 'notFound' };
    const errors = Object.keys(error.errors).length;
    return error.status === 400 && errors > 0 ? { kind: 'invalid', errors } : { kind: 'notConnected' };
  }
}
