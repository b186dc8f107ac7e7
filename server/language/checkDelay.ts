// How long after an edit a document is checked, from how long checking that document takes.
// A fixed pause made every squiggle wait for it, though most documents check in a few
// milliseconds. A cheap check runs on every keystroke. An expensive one waits as long as it takes:
// a keystroke typed meanwhile drops a check that would have been thrown away, so while someone
// types faster than the document checks, at most half the server's time goes to checks, and once
// they pause the squiggles follow within about two checks' time.

/** Checks cheaper than this run at once: even at 30 ms between keystrokes (fast typing) they leave the server idle two thirds of the time. */
const instantMs = 10;

/** Recent checks kept per document: the median of a few ignores one garbage-collection pause and still follows a document that grows. */
const samplesKept = 5;

export interface CheckDelays {
  /** Notes that checking `key` just took `ms`. */
  record(key: string, ms: number): void;
  /** Milliseconds to wait after an edit of `key`: 0 while its recent checks are cheap (and before the first), else their median, at most `maxMs`. */
  delayFor(key: string, maxMs: number): number;
  /** Drops what was measured for `key` (its document closed). */
  forget(key: string): void;
}

export function createCheckDelays(): CheckDelays {
  const recent = new Map<string, number[]>();
  return {
    record(key, ms) {
      const samples = recent.get(key) ?? [];
      samples.push(ms);
      if (samples.length > samplesKept) samples.shift();
      recent.set(key, samples);
    },
    delayFor(key, maxMs) {
      const samples = recent.get(key);
      if (samples === undefined) return 0;
      const sorted = [...samples].sort((a, b) => a - b);
      // The lower median: of two checks, the cheaper speaks, so one slow check weighs little.
      const typicalMs = sorted[Math.floor((sorted.length - 1) / 2)];
      return typicalMs < instantMs ? 0 : Math.min(maxMs, Math.round(typicalMs));
    },
    forget(key) {
      recent.delete(key);
    },
  };
}
