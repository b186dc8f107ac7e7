// Snapshot expressions (reference §2.7) and intervals of snapshot indexes (§2.5, §2.7), resolved
// against an environment's timeline. Pure: the store supplies the count and a time lookup.
import { ENVIRONMENT_NAME_PART } from '../../../shared/names.ts';

/** What resolution needs to know of an environment's snapshots. */
export interface SnapshotTimeline {
  /** Number of snapshots; indexes run 1..count. */
  count: number;
  /** Index of the snapshot current at `timestamp` (epoch seconds), 0 when it is before the first. */
  indexAt(timestamp: number): number;
  /** Epoch seconds now. */
  now: number;
}

export type Resolution = { index: number } | { error: string; status: 400 };

type Bound =
  | { kind: 'index'; index: number }
  | { kind: 'back'; back: number }
  | { kind: 'latest' }
  | { kind: 'time'; timestamp: number };

type Expression = Bound & { quoted: string };

const UNIT_SECONDS: Record<string, number> = {
  s: 1,
  sec: 1,
  secs: 1,
  second: 1,
  seconds: 1,
  m: 60,
  min: 60,
  mins: 60,
  minute: 60,
  minutes: 60,
  h: 3600,
  hr: 3600,
  hrs: 3600,
  hour: 3600,
  hours: 3600,
  d: 86400,
  day: 86400,
  days: 86400,
  w: 604800,
  week: 604800,
  weeks: 604800,
};

/** Seconds of a duration such as `1hour`, `30min`, `2 days`; undefined when it is not one. */
function durationSeconds(text: string, separator: RegExp): number | undefined {
  const match = new RegExp(`^(\\d+)${separator.source}([a-z]+)$`).exec(text);
  if (match === null) return undefined;
  const unit = UNIT_SECONDS[match[2]];
  return unit === undefined ? undefined : Number(match[1]) * unit;
}

/** Epoch seconds of the time inside `@{…}`, undefined when it is not a time this server reads. */
function timeOf(inner: string, now: number): number | undefined {
  if (inner === 'now') return now;
  const ago = /^(.+)\.ago$/.exec(inner);
  if (ago !== null) {
    const seconds = durationSeconds(ago[1], /\./);
    return seconds === undefined ? undefined : now - seconds;
  }
  // `YYYY-MM-DDTHH:MM:SS` is UTC (reference §1.5); the date alone means its midnight.
  const absolute = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(inner);
  if (absolute === null) return undefined;
  const [, year, month, day, hour = '0', minute = '0', second = '0'] = absolute;
  const ms = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second));
  return Number.isNaN(ms) ? undefined : ms / 1000;
}

function parseExpression(env: string, expr: string, now: number): Expression | undefined {
  if (/^-?\d+$/.test(expr)) {
    // Integer forms are normalised to `#k` when quoted (reference §2.7).
    const n = Number(expr);
    return n < 0
      ? { kind: 'back', back: -n - 1, quoted: `${env}#${expr}` }
      : { kind: 'index', index: n, quoted: `${env}#${expr}` };
  }
  let match = /^#(-?\d+)$/.exec(expr);
  if (match !== null) {
    const n = Number(match[1]);
    return n < 0
      ? { kind: 'back', back: -n - 1, quoted: `${env}${expr}` }
      : { kind: 'index', index: n, quoted: `${env}${expr}` };
  }
  match = /^~(\d+)$/.exec(expr);
  if (match !== null) return { kind: 'back', back: Number(match[1]), quoted: `${env}${expr}` };
  match = /^@\{(.+)\}$/.exec(expr);
  if (match !== null) {
    const inner = match[1];
    if (inner === 'now') return { kind: 'latest', quoted: `${env}${expr}` };
    const timestamp = timeOf(inner, now);
    return timestamp === undefined ? undefined : { kind: 'time', timestamp, quoted: `${env}${expr}` };
  }
  return undefined;
}

function outOfRange(org: string, quoted: string, env: string, index: number, count: number): string {
  return `Org: '${org}'. Snapshot '${quoted}' resolves to '${env}#${index}'. len(snapshots) == ${count}. Indexes are 1-based`;
}

/**
 * The snapshot index an expression (`N`, `-1`, `#N`, `~N`, `@{…}`, or '' for the latest) names in
 * environment `env`, or the service's 400 message when it is out of range or unreadable.
 */
export function resolveSnapshotExpression(
  org: string,
  env: string,
  expr: string,
  timeline: SnapshotTimeline,
): Resolution {
  const expression: Expression | undefined =
    expr === '' ? { kind: 'latest', quoted: env } : parseExpression(env, expr, timeline.now);
  if (expression === undefined) return { error: `Bad snappish ${env}${expr}`, status: 400 };
  const index = boundIndex(expression, timeline);
  if (index < 1 || index > timeline.count) {
    return { error: outOfRange(org, expression.quoted, env, index, timeline.count), status: 400 };
  }
  return { index };
}

const SNAPPISH_PARTS = new RegExp(`^(${ENVIRONMENT_NAME_PART})(.*)$`);

/** A snappish of the diff endpoint, `env`, `env#N`, `env~N` or `env@{…}`, split into its two parts. */
export function splitSnappish(snappish: string): { env: string; expr: string } | undefined {
  const match = SNAPPISH_PARTS.exec(snappish);
  if (match === null) return undefined;
  return { env: match[1], expr: match[2] };
}

/** One end of an interval: `N`, `~N`, `NOW`, or a duration before now such as `1hour`. */
function parseBound(text: string, now: number): Bound | undefined {
  if (/^\d+$/.test(text)) return { kind: 'index', index: Number(text) };
  const back = /^~(\d+)$/.exec(text);
  if (back !== null) return { kind: 'back', back: Number(back[1]) };
  if (text.toUpperCase() === 'NOW') return { kind: 'latest' };
  const seconds = durationSeconds(text.toLowerCase(), /\s*/);
  return seconds === undefined ? undefined : { kind: 'time', timestamp: now - seconds };
}

function boundIndex(bound: Bound, timeline: SnapshotTimeline): number {
  switch (bound.kind) {
    case 'index':
      return bound.index;
    case 'back':
      return timeline.count - bound.back;
    case 'latest':
      return timeline.count;
    case 'time':
      return timeline.indexAt(bound.timestamp);
  }
}

/** An inclusive range of snapshot indexes, possibly empty (`first > last`). */
export interface IndexRange {
  first: number;
  last: number;
}

export type IntervalResult = { range: IndexRange } | { error: string; status: 400 };

function invalid(value: string): { error: string; status: 400 } {
  return { error: `Invalid interval value: ${value}`, status: 400 };
}

/** The index range of one bound given alone as `start` or `end` of the events query. */
export function resolveBound(
  text: string,
  timeline: SnapshotTimeline,
): { index: number } | { error: string; status: 400 } {
  const bound = parseBound(text.trim(), timeline.now);
  return bound === undefined ? invalid(text) : { index: boundIndex(bound, timeline) };
}

/**
 * The snapshot indexes an `interval` query selects: '' → all, `NOW` → the latest, `a..b` → from a
 * to b inclusive (either side may be any bound), a single bound → that snapshot.
 */
export function resolveInterval(text: string, timeline: SnapshotTimeline): IntervalResult {
  const trimmed = text.trim();
  if (trimmed === '') return { range: { first: 1, last: timeline.count } };
  const parts = trimmed.split('..');
  if (parts.length > 2) return invalid(text);
  const bounds: number[] = [];
  for (const part of parts) {
    const resolved = resolveBound(part, timeline);
    if ('error' in resolved) return invalid(part);
    bounds.push(resolved.index);
  }
  const first = Math.max(1, bounds[0]);
  const last = Math.min(timeline.count, bounds[bounds.length - 1]);
  return { range: { first, last } };
}
