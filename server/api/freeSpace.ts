// Warns before the disk is full: the free space of the directories the server writes (data and
// evidence) against a threshold (--min-free-space). Below it, /ready says so and the log warns
// once; the log says again when space is back. Checked at start, every minute and on each /ready.
import { statfs } from 'node:fs/promises';

/** The default of --min-free-space, in MB: room for a few hundred typical evidence files. */
export const DEFAULT_MIN_FREE_MB = 100;
const CHECK_EVERY_MS = 60_000;

export interface FreeSpaceWatch {
  /** A warning when a directory has less free space than the threshold, else undefined. */
  check: () => Promise<string | undefined>;
  close: () => void;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

async function freeBytesOf(dir: string): Promise<number | undefined> {
  try {
    const stats = await statfs(dir);
    return stats.bavail * stats.bsize;
  } catch {
    // Not there yet (the evidence directory before the first file): nothing to warn about.
    return undefined;
  }
}

export function watchFreeSpace(
  dirs: readonly string[],
  minFreeMb: number,
  log: (line: string) => void,
): FreeSpaceWatch {
  const minFree = minFreeMb * 1024 * 1024;
  let warned = false;
  async function check(): Promise<string | undefined> {
    let warning: string | undefined;
    for (const dir of dirs) {
      const free = await freeBytesOf(dir);
      if (free === undefined || free >= minFree) continue;
      warning = `low disk space: ${megabytes(free)} free in ${dir}, below --min-free-space ${minFreeMb} MB; writes will be refused (507) once it is full, so free space or grow the disk`;
      break;
    }
    if (warning !== undefined && !warned) log(`warning: ${warning}`);
    if (warning === undefined && warned) log('disk space is above --min-free-space again');
    warned = warning !== undefined;
    return warning;
  }
  const report = (): void => void check();
  const timer = setInterval(report, CHECK_EVERY_MS);
  timer.unref();
  report();
  return { check, close: () => clearInterval(timer) };
}
