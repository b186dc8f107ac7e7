// A trail's audit package (reference §2.2): a gzip-compressed tar archive of documents (the trail,
// its attestations) and evidence files, packed as the client reads it. One evidence file is open
// at a time and read as the archive is taken, so a package of any size holds a few chunks in
// memory; a client that goes away stops the packing and closes the file being read.
import { pipeline, Readable } from 'node:stream';
import { pipeline as pipelined } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { pack, type Pack } from 'tar-stream';
import type { Attestation } from '../store/attestations.ts';
import type { EvidenceFile } from '../store/evidence.ts';

export interface PackedEvidence {
  /** Where the file goes in the archive. */
  path: string;
  sha256: string;
  /** The line that names it in evidence/MISSING.txt when its file is gone. */
  missingLine: string;
}

export interface PackageContents {
  /** Every entry's modification time. */
  mtime: Date;
  documents: ReadonlyArray<{ path: string; text: string }>;
  evidence: readonly PackedEvidence[];
  /** Opens an evidence file; undefined when it is missing. */
  open(sha256: string): Promise<EvidenceFile | undefined>;
}

/**
 * A name kept to one path segment that unpacks anywhere: path separators, control characters and
 * the characters Windows refuses in names become `_`, as does a leading dot; letters of any
 * script stay as they are.
 */
export function segment(name: string): string {
  return name.replace(/[\p{Cc}/\\:*?"<>|]/gu, '_').replace(/^\.+/, '_') || '_';
}

/** The evidence files of these attestations, each under its attestation's name and id. */
export function packedEvidenceOf(attestations: readonly Attestation[]): PackedEvidence[] {
  return attestations.flatMap(({ name, id, evidence: file }) =>
    file === null
      ? []
      : [
          {
            path: `evidence/${segment(name)}/${id}/${segment(file.filename)}`,
            sha256: file.sha256,
            missingLine: `${name} ${id}: ${file.filename} (sha256 ${file.sha256})`,
          },
        ],
  );
}

function textFile(text: string): EvidenceFile {
  const bytes = Buffer.from(text);
  return { size: bytes.length, content: Readable.from([bytes], { objectMode: false }) };
}

/** Adds one entry and resolves once its bytes are in the archive; the file is closed either way. */
async function addEntry(archive: Pack, path: string, mtime: Date, file: EvidenceFile): Promise<void> {
  let sink;
  try {
    sink = archive.entry({ name: path, size: file.size, mtime });
  } catch (error) {
    // The archive was destroyed meanwhile (the client went away): close the file opened for it.
    file.content.destroy();
    throw error;
  }
  await pipelined(file.content, sink);
}

async function packEntries(archive: Pack, contents: PackageContents): Promise<void> {
  for (const document of contents.documents)
    await addEntry(archive, document.path, contents.mtime, textFile(document.text));
  const missing: string[] = [];
  for (const evidence of contents.evidence) {
    const file = await contents.open(evidence.sha256);
    if (file === undefined) missing.push(evidence.missingLine);
    else await addEntry(archive, evidence.path, contents.mtime, file);
  }
  // A lost file leaves the package complete otherwise, and says which and how to get it back.
  if (missing.length > 0) {
    const note = [
      "These attestations' evidence files are missing from the server's evidence directory; restore them from a backup of that directory:",
      ...missing,
      '',
    ];
    await addEntry(archive, 'evidence/MISSING.txt', contents.mtime, textFile(note.join('\n')));
  }
}

/** The package as a stream of gzip bytes, packed entry by entry as it is read. */
export function auditPackageOf(contents: PackageContents): Readable {
  const archive = pack();
  const gzip = createGzip();
  // Either end failing (the client going away destroys the gzip stream) destroys the other; the
  // error is the reply's to report, so it needs nothing more here.
  pipeline(archive, gzip, () => undefined);
  packEntries(archive, contents).then(
    () => {
      if (!gzip.destroyed) archive.finalize();
    },
    (error: unknown) => {
      // Packing stopped because the client went away (the reply destroyed the gzip stream), or
      // failed on its own (a file could not be read): that ends the download, cut short.
      if (gzip.destroyed) return;
      console.error('The audit package could not be packed:', error);
      archive.destroy(error instanceof Error ? error : new Error(String(error)));
    },
  );
  return gzip;
}
