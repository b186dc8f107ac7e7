// Link targets of the display data: typed references that each renderer (webview, HTML page)
// turns into its own kind of link, and user-supplied URLs admitted only when they are http(s).

export type ViewRef =
  | { kind: 'flow'; flow: string }
  | { kind: 'trail'; flow: string; trail: string }
  | { kind: 'attestation'; flow: string; trail: string; attestationId: string }
  /** `trail` picks the artifact's record in that trail when the fingerprint is in several. */
  | { kind: 'artifact'; flow: string; fingerprint: string; trail?: string }
  | { kind: 'evidence'; flow: string; trail: string; attestationId: string }
  | { kind: 'flows' }
  | { kind: 'environments' }
  | { kind: 'environment'; environment: string }
  | { kind: 'snapshot'; environment: string; index: number }
  /** Two snapshots compared: `from` is the earlier, `to` the later one. */
  | { kind: 'comparison'; from: SnapshotId; to: SnapshotId }
  | { kind: 'org' }
  | { kind: 'policies' }
  | { kind: 'policy'; policy: string }
  | { kind: 'controls' }
  | { kind: 'control'; identifier: string }
  | { kind: 'external'; url: string };

/** A snapshot named as the diff endpoint names it: `env#N`. */
export interface SnapshotId {
  environment: string;
  index: number;
}

/** `env#N` read back into its parts, or null when it is not of that form. */
export function snapshotIdOf(value: unknown): SnapshotId | null {
  if (typeof value !== 'string') return null;
  const hash = value.lastIndexOf('#');
  const index = Number(value.slice(hash + 1));
  return hash > 0 && Number.isInteger(index) && index > 0 ? { environment: value.slice(0, hash), index } : null;
}

/** One page of a long list: where it is, and the neighbouring pages when there are any. */
export interface PagingDisplay {
  page: number;
  perPage: number;
  total: number;
  pageCount: number;
  previous: number | null;
  next: number | null;
}

/** Paging from a list's counts; a page past the end still names its way back. */
export function pagingOf(page: number, perPage: number, total: number): PagingDisplay {
  const pageCount = perPage > 0 ? Math.ceil(total / perPage) : 0;
  return {
    page,
    perPage,
    total,
    pageCount,
    previous: page > 1 ? Math.min(page - 1, Math.max(pageCount, 1)) : null,
    next: page < pageCount ? page + 1 : null,
  };
}

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
      const url =
        typeof entry === 'string'
          ? entry
          : isRecord(entry) && typeof entry.href === 'string'
            ? entry.href
            : JSON.stringify(entry);
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

/** Seconds since the epoch (a number, or a numeric string as artifact lists send it) as an ISO time, or null. */
export function timeOf(seconds: unknown): string | null {
  const value = typeof seconds === 'string' && seconds.trim() !== '' ? Number(seconds) : seconds;
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? new Date(value * 1000).toISOString() : null;
}

/** A labelled user URL, or null when there is none. */
export function urlDisplay(label: string, url: unknown): ViewUrl | null {
  if (typeof url !== 'string' || url === '') return null;
  return { label, url, ref: externalRef(url) };
}

/** The first characters of a fingerprint, enough to tell it apart on a page. */
export function shortFingerprint(fingerprint: string): string {
  return fingerprint.length > 12 ? `${fingerprint.slice(0, 12)}…` : fingerprint;
}

export function listOf(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

export function numberOf(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function textOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
