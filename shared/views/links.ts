// Link targets of the display data: typed references that each renderer (webview, HTML page)
// turns into its own kind of link, and user-supplied URLs admitted only when they are http(s).

export type ViewRef =
  | { kind: 'flow'; flow: string }
  | { kind: 'trail'; flow: string; trail: string }
  | { kind: 'attestation'; flow: string; trail: string; attestationId: string }
  | { kind: 'artifact'; flow: string; fingerprint: string }
  | { kind: 'evidence'; flow: string; trail: string; attestationId: string }
  | { kind: 'external'; url: string };

/** A user-supplied URL as a link target, or null when it is not an absolute http(s) URL. */
export function externalRef(url: unknown): ViewRef | null {
  if (typeof url !== 'string') return null;
  return /^https?:\/\/[^\s]/i.test(url) ? { kind: 'external', url } : null;
}

/** A labelled URL: the text is always shown; `ref` is set only when it may become a link. */
export interface ViewUrl {
  label: string;
  url: string;
  ref: ViewRef | null;
}

/** `external_urls` of an API object (`{name: url}` or `{name: {href}}`), in name order. */
export function externalUrlsOf(value: unknown): ViewUrl[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value as Record<string, unknown>)
    .map(([label, entry]) => {
      const url = typeof entry === 'string' ? entry : isRecord(entry) && typeof entry.href === 'string' ? entry.href : JSON.stringify(entry);
      return { label, url, ref: externalRef(url) };
    })
    .sort((a, b) => a.label.localeCompare(b.label));
}

/** Structured user text (user_data, annotations) as pretty-printed JSON, or null when empty. */
export function prettyJson(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (isRecord(value) && Object.keys(value).length === 0) return null;
  return JSON.stringify(value, null, 2);
}

/** Seconds since the epoch as an ISO time, or null. */
export function timeOf(seconds: unknown): string | null {
  return typeof seconds === 'number' && Number.isFinite(seconds) ? new Date(seconds * 1000).toISOString() : null;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function textOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
