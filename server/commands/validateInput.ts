// What `cev validate` reads: regular files only, of at most the largest document any face takes
// (shared/limits.ts). A FIFO opened for reading waits for a writer forever, and a device or a
// 50 MB file would be read whole into memory (1.9 GB and a RangeError): both are refused with a
// message before anything is read. The kind's own limit (256 KB for templates and policies) is
// the shared core's finding once the file is read.
import { constants, type Stats } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { limits, sizeText } from '../../shared/limits.ts';

/** Why a file is not read: the message `cev validate` prints for it. */
export class UnreadableFile extends Error {}

function whatItIs(info: Stats): string {
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

function refusalOf(file: string, info: Stats): UnreadableFile | undefined {
  if (!info.isFile()) return new UnreadableFile(`cannot read ${file}: it is ${whatItIs(info)}; give a regular file`);
  if (info.size > limits.jsonBytes) return tooLarge(file, info.size);
  return undefined;
}

function tooLarge(file: string, size: number): UnreadableFile {
  return new UnreadableFile(
    `cannot read ${file}: it is ${sizeText(size)}, over the limit of ${sizeText(limits.jsonBytes)} for any document (${sizeText(limits.documentChars)} for templates and policies)`,
  );
}

/**
 * The text of a regular file of at most limits.jsonBytes. The file is looked at before it is
 * opened, and opened without waiting (a file replaced by a FIFO in between does not block), then
 * looked at again and read up to one byte past the limit (it may have grown).
 */
export async function documentTextOf(file: string): Promise<string> {
  let refusal: UnreadableFile | undefined;
  try {
    refusal = refusalOf(file, await stat(file));
  } catch (error) {
    throw new UnreadableFile(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  if (refusal !== undefined) throw refusal;
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const opened = await handle.stat();
    const again = refusalOf(file, opened);
    if (again !== undefined) throw again;
    const chunks: Buffer[] = [];
    let length = 0;
    // The size it has now, and one byte more to see whether it grew.
    let chunk = Buffer.alloc(Math.min(opened.size, limits.jsonBytes) + 1);
    while (length <= limits.jsonBytes) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, length);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      length += bytesRead;
      chunk = Buffer.alloc(Math.min(64 * 1024, limits.jsonBytes + 1 - length));
    }
    if (length > limits.jsonBytes) throw tooLarge(file, length);
    return Buffer.concat(chunks, length).toString('utf8');
  } finally {
    await handle.close();
  }
}
