// Files the API sends (evidence, audit packages and reports, audit logs): each is a stream read as
// the client takes it, so a download holds a few chunks in memory whatever its size, and a client
// that goes away stops the read (fastify destroys the stream when the connection closes). Each is
// named as RFC 6266 says: the name itself, in any Unicode, as `filename*`, and an ASCII
// `filename` for clients that read only that.
import type { Readable } from 'node:stream';
import { create } from 'content-disposition';
import type { FastifyReply } from 'fastify';

export interface Download {
  /** The media type. */
  type: string;
  /** The file name the client saves it under, in any Unicode. */
  filename: string;
  content: Readable;
  /** The length in bytes, when known before the first byte is sent. */
  size?: number;
}

/**
 * The file name in printable ASCII: accented letters lose their accents (é → e), anything else
 * outside printable ASCII becomes `_`, and so does a `%` before two hex digits (which some
 * clients would decode), so that the exact name then travels in `filename*`.
 */
export function asciiFilenameOf(filename: string): string {
  return filename
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]|%(?=[0-9A-Fa-f]{2})/gu, '_');
}

/** `attachment; filename="<ASCII>"; filename*=UTF-8''<percent-encoded>` (RFC 6266, RFC 8187). */
export function attachmentDisposition(filename: string): string {
  // A lone surrogate has no UTF-8 form; it becomes U+FFFD rather than failing the download.
  const name = filename.replace(/\p{Cs}/gu, '\uFFFD');
  return create(name, { fallback: asciiFilenameOf(name) });
}

export function sendDownload(reply: FastifyReply, download: Download): FastifyReply {
  reply.type(download.type).header('content-disposition', attachmentDisposition(download.filename));
  if (download.size !== undefined) reply.header('content-length', String(download.size));
  return reply.send(download.content);
}
