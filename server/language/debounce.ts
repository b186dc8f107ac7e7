// Per-document debouncing of validation: typing fast validates once, after the last keystroke.

export interface Debouncer {
  /** Runs `work` for `key` after `delayMs` of quiet; a later call for the same key replaces it. 0 runs at once. */
  schedule(key: string, delayMs: number, work: () => void): void;
  /** Drops the pending work for `key`, if any. */
  cancel(key: string): void;
  /** Drops all pending work. */
  cancelAll(): void;
}

export function createDebouncer(): Debouncer {
  const pending = new Map<string, ReturnType<typeof setTimeout>>();
  const cancel = (key: string): void => {
    const timer = pending.get(key);
    if (timer !== undefined) clearTimeout(timer);
    pending.delete(key);
  };
  return {
    schedule(key, delayMs, work) {
      cancel(key);
      if (delayMs <= 0) {
        work();
        return;
      }
      pending.set(
        key,
        setTimeout(() => {
          pending.delete(key);
          work();
        }, delayMs),
      );
    },
    cancel,
    cancelAll() {
      for (const key of [...pending.keys()]) cancel(key);
    },
  };
}
