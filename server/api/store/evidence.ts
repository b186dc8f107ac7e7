// Evidence files, content-addressed by sha256. On disk a file is complete (written to a temporary
// file in its folder, fsynced, renamed into place) before the caller writes the row that points to
// it; a write that fails at any step removes what it wrote, so a full disk keeps no partial files.
// Instances of a team's server share one evidence directory: a write whose row failed removes the
// file it created only after checking that no committed row of another instance refers to it, and
// a committed write checks that its file is still there (one of the two sees the other). A file is
// read as a stream, so a download holds a few chunks of it at a time, never the whole file.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, rename, rmdir, stat, unlink, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';

/** Stored evidence, held until the row that refers to it has committed or failed. */
export interface EvidenceHold {
  sha256: string;
  /**
   * Call once the row's transaction has settled. A file this put created is removed again when
   * no row committed by any write holding it refers to it.
   */
  settle(committed: boolean): Promise<void>;
}

/** A stored file opened for reading. */
export interface EvidenceFile {
  size: number;
  /**
   * Its bytes, read as they are consumed. The file stays open until the stream ends or is
   * destroyed: whoever opens a file reads it to the end or destroys this stream.
   */
  content: Readable;
}

export interface EvidenceStore {
  /** Stores the bytes (completely, or not at all) and answers their sha256 (hex) with a hold on them. */
  put(bytes: Uint8Array): Promise<EvidenceHold>;
  /** The file, opened, or undefined when no file has this sha256. */
  open(sha256: string): Promise<EvidenceFile | undefined>;
}

const SHA256_HEX = /^[a-f0-9]{64}$/;

/** Chunks a file held in memory is read in, as a file on disk is read. */
const CHUNK_BYTES = 64 * 1024;

function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

async function fsyncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

interface Holders {
  count: number;
  /** A put of this round created the file (it did not exist before). */
  created: boolean;
  /** A holder's row committed: the file is in use. */
  used: boolean;
}

/** What a store does when the holders of a file settle. */
interface SettleSteps {
  /** No holder committed and a put of this round created the file. */
  remove(sha: string, bytes: Uint8Array): Promise<void>;
  /** This holder committed. */
  committed(sha: string, bytes: Uint8Array): Promise<void>;
}

/**
 * Who holds each sha256 between its put and the commit of its row, in this process. Writes of
 * equal bytes share a file, so a file is removed only once every holder has settled and none
 * committed.
 */
function holdsOf(steps: SettleSteps): { hold(sha: string, created: boolean, bytes: Uint8Array): EvidenceHold } {
  const holders = new Map<string, Holders>();
  return {
    hold(sha, created, bytes) {
      const entry = holders.get(sha) ?? { count: 0, created: false, used: false };
      entry.count += 1;
      entry.created ||= created;
      holders.set(sha, entry);
      let settled = false;
      return {
        sha256: sha,
        async settle(committed) {
          if (settled) return;
          settled = true;
          entry.count -= 1;
          entry.used ||= committed;
          if (committed) await steps.committed(sha, bytes);
          if (entry.count > 0) return;
          holders.delete(sha);
          if (entry.created && !entry.used) await steps.remove(sha, bytes);
        },
      };
    },
  };
}

/** Makes one directory; one that exists already is fine. */
async function makeDirectory(path: string): Promise<void> {
  try {
    await mkdir(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/**
 * Creates the file in its folder under `root`, making both as needed (one level at a time: a
 * recursive mkdir reports read-only storage as ENOENT); again once if a failed write removed the
 * folder meanwhile.
 */
async function createIn(root: string, folder: string, file: string): Promise<FileHandle> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await makeDirectory(folder);
    } catch (error) {
      if (!isMissing(error)) throw error;
      await mkdir(dirname(root), { recursive: true });
      await makeDirectory(root);
      await makeDirectory(folder);
    }
    try {
      return await open(file, 'wx');
    } catch (error) {
      if (!isMissing(error) || attempt === 2) throw error;
    }
  }
}

/**
 * Evidence files in `dir`. `isReferenced` answers whether a committed row refers to a sha256: the
 * check another instance sharing the directory needs before a file it committed a row for is lost.
 */
export function fileEvidenceStore(dir: string, isReferenced: (sha: string) => Promise<boolean>): EvidenceStore {
  const folderOf = (sha: string): string => join(dir, sha.slice(0, 2));
  const pathOf = (sha: string): string => join(folderOf(sha), sha);
  const holds = holdsOf({
    // Removed first, checked after: a row another instance commits before the check is seen here,
    // one committed after it sees the file gone (below) and writes it again. When the check cannot
    // be made (database out of reach), the file is put back: better kept than lost.
    async remove(sha, bytes) {
      await unlink(pathOf(sha)).catch(() => undefined);
      await rmdir(folderOf(sha)).catch(() => undefined);
      const referenced = await isReferenced(sha).catch(() => true);
      if (referenced) await write(sha, bytes);
    },
    // The row is committed and answered as stored: a file that cannot be put back now is reported
    // missing on download (404 saying so), not turned into a failed write.
    async committed(sha, bytes) {
      if (!(await exists(pathOf(sha)))) await write(sha, bytes).catch(() => undefined);
    },
  });

  /** Writes the file through a temporary one; on any failure removes what it wrote and rethrows. */
  async function write(sha: string, bytes: Uint8Array): Promise<void> {
    const folder = folderOf(sha);
    const target = pathOf(sha);
    const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    let renamed = false;
    try {
      const handle = await createIn(dir, folder, temporary);
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, target);
      renamed = true;
      await fsyncPath(folder);
    } catch (error) {
      await unlink(renamed ? target : temporary).catch(() => undefined);
      // Only when empty: another write's file in the same folder stays.
      await rmdir(folder).catch(() => undefined);
      throw error;
    }
  }

  return {
    async put(bytes) {
      const sha = sha256Hex(bytes);
      if (await exists(pathOf(sha))) return holds.hold(sha, false, bytes);
      // Held before writing, so that a failing write of equal bytes does not remove this one.
      const held = holds.hold(sha, true, bytes);
      try {
        await write(sha, bytes);
      } catch (error) {
        await held.settle(false);
        throw error;
      }
      return held;
    },
    async open(sha) {
      if (!SHA256_HEX.test(sha)) return undefined;
      let handle: FileHandle;
      try {
        handle = await open(pathOf(sha), 'r');
      } catch (error) {
        // A missing file is the caller's to explain; anything else (permissions, I/O) is a fault.
        if (isMissing(error)) return undefined;
        throw error;
      }
      try {
        // Size and bytes of the one file opened, even if it is replaced or removed meanwhile.
        const { size } = await handle.stat();
        return { size, content: handle.createReadStream({ highWaterMark: CHUNK_BYTES }) };
      } catch (error) {
        await handle.close();
        throw error;
      }
    },
  };
}

function* chunksOf(bytes: Buffer): Generator<Buffer> {
  for (let start = 0; start < bytes.length; start += CHUNK_BYTES) yield bytes.subarray(start, start + CHUNK_BYTES);
}

export function memoryEvidenceStore(): EvidenceStore {
  const files = new Map<string, Buffer>();
  // One process holds every write of its memory: its holds see them all.
  const holds = holdsOf({
    remove(sha) {
      files.delete(sha);
      return Promise.resolve();
    },
    committed: () => Promise.resolve(),
  });
  return {
    put(bytes) {
      const sha = sha256Hex(bytes);
      const created = !files.has(sha);
      if (created) files.set(sha, Buffer.from(bytes));
      return Promise.resolve(holds.hold(sha, created, bytes));
    },
    open(sha) {
      const bytes = files.get(sha);
      if (bytes === undefined) return Promise.resolve(undefined);
      return Promise.resolve({ size: bytes.length, content: Readable.from(chunksOf(bytes), { objectMode: false }) });
    },
  };
}
