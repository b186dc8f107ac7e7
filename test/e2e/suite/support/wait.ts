// Bounded polling: the tests wait for conditions (a row, a diagnostic, a port), never for a time.
import { setTimeout as delay } from 'node:timers/promises';

/** The first truthy value of `probe`, polled every `intervalMs`; throws at the deadline with what was last seen. */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | false | null | PromiseLike<T | undefined | false | null>,
  timeoutMs = 20_000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const cause = lastError instanceof Error ? `: ${lastError.message}` : '';
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${cause}`);
    }
    await delay(intervalMs);
  }
}
