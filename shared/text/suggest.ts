// "Did you mean …?": the candidates closest to a misspelt word, for messages and quick fixes.

export function suggestionsFor(word: string, candidates: readonly string[], limit = 3): string[] {
  const lowered = word.toLowerCase();
  const threshold = Math.max(2, Math.floor(word.length / 3));
  return candidates
    .map((candidate) => ({ candidate, distance: distanceBetween(lowered, candidate.toLowerCase()) }))
    .filter(
      ({ candidate, distance }) =>
        distance <= threshold ||
        candidate.toLowerCase().startsWith(lowered) ||
        (lowered.length >= 3 && candidate.toLowerCase().includes(lowered)),
    )
    .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
    .slice(0, limit)
    .map(({ candidate }) => candidate);
}

/** Levenshtein distance with adjacent transpositions (so `juint` is one step from `junit`). */
export function distanceBetween(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length > 64 || b.length > 64) return Math.max(a.length, b.length);
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, before[j - 2] + 1);
      current.push(best);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length];
}

/** `'a', 'b' or 'c'`: pydantic's way of listing allowed values. */
export function quotedChoice(values: readonly unknown[]): string {
  const quoted = values.map((value) => (typeof value === 'string' ? `'${value}'` : String(value)));
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
}
