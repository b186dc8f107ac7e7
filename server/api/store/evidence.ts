// Evidence files, content-addressed by sha256. On disk a file is complete (written, fsynced,
// renamed into place) before the caller writes the row that points to it.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';

export interface EvidenceStore {
  /** Stores the bytes and answers their sha256 (hex). */
  put(bytes: Uint8Array): Promise<string>;
  get(sha256: string): Promise<Buffer | undefined>;
}

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

export function fileEvidenceStore(dir: string): EvidenceStore {
  const pathOf = (sha: string): string => join(dir, sha.slice(0, 2), sha);
  return {
    async put(bytes) {
      const sha = sha256Hex(bytes);
      const target = pathOf(sha);
      if (await exists(target)) return sha;
      const folder = join(dir, sha.slice(0, 2));
      await mkdir(folder, { recursive: true });
      const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
      const handle = await open(temporary, 'wx');
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, target);
      await fsyncPath(folder);
      return sha;
    },
    async get(sha) {
      if (!/^[a-f0-9]{64}$/.test(sha)) return undefined;
      try {
        return await readFile(pathOf(sha));
      } catch {
        return undefined;
      }
    },
  };
}

export function memoryEvidenceStore(): EvidenceStore {
  const files = new Map<string, Buffer>();
  return {
    async put(bytes) {
      const sha = sha256Hex(bytes);
      if (!files.has(sha)) files.set(sha, Buffer.from(bytes));
      return sha;
    },
    async get(sha) {
      return files.get(sha);
    },
  };
}
