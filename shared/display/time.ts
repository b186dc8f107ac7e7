// Times as a person reads them: how long ago, in words ("5 minutes ago"), with the exact time
// ("2026-11-26 04:05:32 UTC") kept for a closer look (the pages' hover). Input is an ISO time as
// the display models give it (links.ts timeOf).

const UNITS: ReadonlyArray<[unit: Intl.RelativeTimeFormatUnit, seconds: number, below: number]> = [
  ['second', 1, 60],
  ['minute', 60, 60 * 60],
  ['hour', 60 * 60, 24 * 60 * 60],
  ['day', 24 * 60 * 60, 30 * 24 * 60 * 60],
  ['month', 30 * 24 * 60 * 60, 365 * 24 * 60 * 60],
  ['year', 365 * 24 * 60 * 60, Infinity],
];

const words = new Intl.RelativeTimeFormat('en', { numeric: 'always' });

/** `iso` from `now` (milliseconds since the epoch) in words: "just now", "3 hours ago", "in 2 days". */
export function relativeTime(iso: string, now: number): string {
  const seconds = (Date.parse(iso) - now) / 1000;
  if (Number.isNaN(seconds)) return iso;
  const distance = Math.abs(seconds);
  if (distance < 10) return 'just now';
  const [unit, size] = UNITS.find(([, , below]) => distance < below)!;
  return words.format(Math.trunc(seconds / size), unit);
}

/** `iso` to the second, in UTC: "2026-11-26 04:05:32 UTC". */
export function exactTime(iso: string): string {
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? iso : `${time.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
