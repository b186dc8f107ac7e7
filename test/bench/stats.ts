// Figures every benchmark prints the same way: medians, and ratios to a baseline measured in the
// same run (the machine is shared and noisy, so only same-run ratios compare).

export function median(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Median milliseconds of `runs` calls of `work`, after `warmup` unmeasured calls. */
export async function medianMs(work: () => unknown, runs: number, warmup = Math.min(5, runs)): Promise<number> {
  for (let i = 0; i < warmup; i++) await work();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await work();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

/** One result line: the figure, the baseline, their ratio and whether the target holds. */
export function report(
  label: string,
  value: number,
  baseline: number,
  unit: string,
  target?: { max: number },
): boolean {
  const ratio = value / baseline;
  const verdict =
    target === undefined
      ? ''
      : ratio <= target.max
        ? `  ok (target ≤ ${target.max}×)`
        : `  MISSED (target ≤ ${target.max}×)`;
  console.log(
    `${label}: ${value.toFixed(2)} ${unit} vs baseline ${baseline.toFixed(2)} ${unit} → ${ratio.toFixed(2)}×${verdict}`,
  );
  return target === undefined || ratio <= target.max;
}

/** One result line for an absolute target: the figure and whether it is at most `max`. */
export function reportAtMost(label: string, value: number, unit: string, max: number): boolean {
  console.log(`${label}: ${value.toFixed(2)} ${unit}  ${value <= max ? 'ok' : 'MISSED'} (target ≤ ${max} ${unit})`);
  return value <= max;
}
