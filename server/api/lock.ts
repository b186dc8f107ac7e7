// One server per data directory: a lock file holding the owner's pid. A lock left by a process
// that no longer runs (kill -9) is taken over.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from './usageError.ts';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock or throws a UsageError naming the running owner; answers the release function. */
export function lockDataDir(dataDir: string): () => void {
  const file = join(dataDir, 'server.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      return () => {
        try {
          if (readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file);
        } catch {
          // Already gone: nothing to release.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = Number.parseInt(readFileSync(file, 'utf8'), 10);
    if (Number.isInteger(owner) && owner !== process.pid && isRunning(owner)) {
      throw new UsageError(
        `another server (pid ${owner}) is already using the data directory ${dataDir}; stop it or choose another --data`,
      );
    }
    rmSync(file, { force: true });
  }
  throw new UsageError(`could not lock the data directory ${dataDir}`);
}
