// Waiting for a condition, the one way every test waits (API, security, unit, and the e2e runner
// and suite): poll it, bounded, and say what did not happen. Never a fixed sleep: a condition is
// met as soon as it holds, and a slow machine only waits longer, up to the bound.

/**
 * Polls `probe` until it answers a truthy value, and resolves with that value. A probe that throws
 * counts as not yet (a page still loading); at the deadline the error names `what` and the last
 * thrown message. Polls every 10 ms at first, backing off to every 100 ms.
 */
export async function waitFor<T>(
  probe: () => T | PromiseLike<T>,
  what: string,
  timeoutMs = 10_000,
): Promise<Exclude<T, undefined | null | false | 0 | ''>> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (let interval = 10; ; interval = Math.min(100, interval * 2)) {
    try {
      const value = await probe();
      if (value) return value as Exclude<T, undefined | null | false | 0 | ''>;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const cause = lastError instanceof Error ? `: ${lastError.message}` : '';
      throw new Error(`${what} did not happen within ${timeoutMs} ms${cause}`);
    }
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}
