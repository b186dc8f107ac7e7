// How often artifacts started to run in an environment (reference §8.4, deployment_frequency): a
// window cut into days or weeks from its start, each with the deployments that fell in it.

export const INTERVAL_SECONDS = { day: 86_400, week: 604_800 } as const;
export type FrequencyInterval = keyof typeof INTERVAL_SECONDS;

/** The most buckets one answer holds: a longer window takes a longer interval. */
export const MAX_BUCKETS = 1000;

export interface Bucket {
  from: number;
  to: number;
  count: number;
}

/** How many buckets of `interval` cover [from, to). */
export function bucketCount(from: number, to: number, interval: FrequencyInterval): number {
  return Math.max(1, Math.ceil((to - from) / INTERVAL_SECONDS[interval]));
}

/** The window's buckets, oldest first (the last ends at `to`), counting `times` (each in [from, to)). */
export function deploymentBuckets(
  times: readonly number[],
  from: number,
  to: number,
  interval: FrequencyInterval,
): Bucket[] {
  const length = INTERVAL_SECONDS[interval];
  const buckets = Array.from({ length: bucketCount(from, to, interval) }, (_, i) => ({
    from: from + i * length,
    to: Math.min(to, from + (i + 1) * length),
    count: 0,
  }));
  for (const time of times) buckets[Math.min(buckets.length - 1, Math.floor((time - from) / length))].count += 1;
  return buckets;
}
