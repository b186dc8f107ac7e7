// Memory given back once documents close. Nothing of a closed document stays reachable (its tree
// is kept by the document object, its timers and check delays by its URI, all dropped on close),
// but V8 keeps the heap it grew to for a large document (a 15 MB report took the process from
// 87 MB to 440 MB, and a collection of the garbage alone left 300 MB). A second after the last
// close, a full collection that also shrinks the heap gives most of it back (160 MB).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Quiet time after a close before collecting, so closing many documents collects once. */
const AFTER_CLOSE_MS = 1000;

type Collect = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * V8's collector as a function: the flag that exposes it takes effect for contexts created after it
 * is set, so a new context hands it over without the process being started with --expose-gc.
 */
function collector(): Collect | undefined {
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as Collect;
  } catch {
    return undefined;
  }
}

export interface MemoryRelease {
  documentClosed(): void;
  stop(): void;
}

export function createMemoryRelease(): MemoryRelease {
  const collect = collector();
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    documentClosed() {
      if (collect === undefined) return;
      clearTimeout(timer);
      // The memory-reducing collection (`last-resort`) shrinks the heap, where a plain one only frees objects.
      timer = setTimeout(() => collect({ type: 'major', execution: 'sync', flavor: 'last-resort' }), AFTER_CLOSE_MS);
      timer.unref();
    },
    stop() {
      clearTimeout(timer);
    },
  };
}
