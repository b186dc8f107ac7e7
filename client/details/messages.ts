// What a detail view may ask of the extension, and the check every request passes before anything
// is done with it. A webview is a page full of text someone else's pipeline wrote: if markup ever
// slipped through, its script could post anything, so nothing it sends is trusted: each message must
// be exactly one of these shapes (no other keys, bounded strings without control characters, small
// positive integers), and a URL to open must be absolute http(s). No VS Code here: unit-tested as is.

/** What a detail panel shows; also what a tree row or another view's link opens. */
export type DetailTarget =
  | { kind: 'trail'; flow: string; trail: string }
  /** By id, or by slot name alone when nothing has filled the slot yet (MISSING): the view says so. */
  | { kind: 'attestation'; flow: string; trail: string; name?: string; attestationId?: string }
  /** `trail` picks the artifact's record in that trail when the fingerprint is in several. */
  | { kind: 'artifact'; flow: string; fingerprint: string; trail?: string }
  | { kind: 'environment'; environment: string }
  | { kind: 'snapshot'; environment: string; index: number }
  | { kind: 'compare'; environment: string; from: number; to: number };

export type DetailKind = DetailTarget['kind'];

export type DetailMessage =
  | { type: 'open'; target: DetailTarget }
  | { type: 'external'; url: string }
  | { type: 'evidence'; action: 'open' | 'save'; flow: string; trail: string; attestationId: string }
  /** Shows page `page` of the list named `list` in the current view. */
  | { type: 'page'; list: string; page: number }
  | { type: 'retry' };

export const DETAIL_KINDS: readonly DetailKind[] = [
  'trail',
  'attestation',
  'artifact',
  'environment',
  'snapshot',
  'compare',
];

/** Longest name, id or fingerprint accepted from a webview; the API's own names are far shorter. */
const MAX_TEXT = 1024;
/** Longest URL accepted to open. */
const MAX_URL = 8192;

type Shape = Record<string, (value: unknown) => boolean>;

const text = (value: unknown): boolean =>
  typeof value === 'string' && value.length > 0 && value.length <= MAX_TEXT && !/\p{Cc}/u.test(value);
const count = (value: unknown): boolean =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 && value <= 1_000_000_000;
const oneOf =
  (...allowed: string[]) =>
  (value: unknown): boolean =>
    typeof value === 'string' && allowed.includes(value);

const TARGET_SHAPES: Record<DetailKind, { required: Shape; optional?: Shape }> = {
  trail: { required: { kind: oneOf('trail'), flow: text, trail: text } },
  attestation: {
    required: { kind: oneOf('attestation'), flow: text, trail: text },
    optional: { name: text, attestationId: text },
  },
  artifact: { required: { kind: oneOf('artifact'), flow: text, fingerprint: text }, optional: { trail: text } },
  environment: { required: { kind: oneOf('environment'), environment: text } },
  snapshot: { required: { kind: oneOf('snapshot'), environment: text, index: count } },
  compare: { required: { kind: oneOf('compare'), environment: text, from: count, to: count } },
};

/** `value` when it has exactly the keys of `shape` (optional ones may be absent) and each passes its check. */
function matches(value: unknown, required: Shape, optional: Shape = {}): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  if (Object.getPrototypeOf(record) !== Object.prototype && Object.getPrototypeOf(record) !== null) return false;
  // Own keys only: `in` would also find Object.prototype's (a key named __proto__ is one).
  for (const key of Object.keys(record))
    if (!Object.hasOwn(required, key) && !Object.hasOwn(optional, key)) return false;
  for (const [key, check] of Object.entries(required))
    if (!Object.hasOwn(record, key) || !check(record[key])) return false;
  for (const [key, check] of Object.entries(optional))
    if (Object.hasOwn(record, key) && !check(record[key])) return false;
  return true;
}

/** The target `value` describes, or undefined when it is not exactly one. */
export function targetFrom(value: unknown): DetailTarget | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const kind = (value as { kind?: unknown }).kind;
  if (typeof kind !== 'string' || !Object.hasOwn(TARGET_SHAPES, kind)) return undefined;
  const shape = TARGET_SHAPES[kind as DetailKind];
  if (!matches(value, shape.required, shape.optional)) return undefined;
  if (kind === 'attestation' && value.name === undefined && value.attestationId === undefined) return undefined;
  return { ...value } as DetailTarget;
}

/** An absolute http(s) URL (no other scheme is ever opened), or undefined. */
export function httpUrlFrom(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > MAX_URL) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

/** The message a webview posted, or undefined when it is not exactly one the extension acts on. */
export function messageFrom(value: unknown): DetailMessage | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  switch ((value as { type?: unknown }).type) {
    case 'open': {
      if (!matches(value, { type: oneOf('open'), target: (target) => targetFrom(target) !== undefined }))
        return undefined;
      return { type: 'open', target: targetFrom(value.target)! };
    }
    case 'external': {
      if (!matches(value, { type: oneOf('external'), url: (url) => httpUrlFrom(url) !== undefined })) return undefined;
      return { type: 'external', url: httpUrlFrom(value.url)! };
    }
    case 'evidence': {
      if (
        !matches(value, {
          type: oneOf('evidence'),
          action: oneOf('open', 'save'),
          flow: text,
          trail: text,
          attestationId: text,
        })
      )
        return undefined;
      return {
        type: 'evidence',
        action: value.action as 'open' | 'save',
        flow: value.flow as string,
        trail: value.trail as string,
        attestationId: value.attestationId as string,
      };
    }
    case 'page': {
      if (!matches(value, { type: oneOf('page'), list: text, page: count })) return undefined;
      return { type: 'page', list: value.list as string, page: value.page as number };
    }
    case 'retry':
      return matches(value, { type: oneOf('retry') }) ? { type: 'retry' } : undefined;
    default:
      return undefined;
  }
}
