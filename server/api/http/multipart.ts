// Reads a multipart request into named fields and files. Files stream through
// @fastify/multipart's size limit (10 MiB), so an oversize upload is refused with 413 while it
// arrives, without being held whole; fields over the part limit are refused the same way.
import type { FastifyRequest } from 'fastify';
import { ApiError, invalid, withInput } from '../errors.ts';
import { refuseDeepJson } from './jsonDepthLimit.ts';

export interface UploadedFile {
  filename: string;
  bytes: Buffer;
}

export interface MultipartBody {
  fields: Map<string, string>;
  files: Map<string, UploadedFile>;
}

export const MAX_FILE_BYTES = 10 * 1024 * 1024;

function statusOf(error: unknown): number | undefined {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' ? status : undefined;
}

/**
 * The parts of a multipart request. Any other body is refused the way the hosted service refuses
 * it (reference §1.2): its required JSON part (`data_json`, `payload`) is missing, 400.
 */
export async function readMultipart(request: FastifyRequest, jsonPartName: string): Promise<MultipartBody> {
  if (!request.isMultipart()) throw invalid({ [jsonPartName]: withInput('Field required', undefined) });
  const body: MultipartBody = { fields: new Map(), files: new Map() };
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        body.files.set(part.fieldname, { filename: part.filename, bytes });
      } else {
        if (part.valueTruncated || part.fieldnameTruncated)
          throw new ApiError(413, `Multipart part '${part.fieldname}' is too large`);
        body.fields.set(part.fieldname, typeof part.value === 'string' ? part.value : JSON.stringify(part.value));
      }
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    const status = statusOf(error);
    const message = error instanceof Error ? error.message : String(error);
    if (status === 413)
      throw new ApiError(
        413,
        `Request part too large: files are limited to ${MAX_FILE_BYTES / 1024 / 1024} MB (${message})`,
      );
    if (status !== undefined && status >= 400 && status < 500) throw new ApiError(status, message);
    throw new ApiError(400, `Malformed multipart body: ${message}`);
  }
  return body;
}

/** The text of a part sent either as a field or as a file. */
export function partText(body: MultipartBody, name: string): string | undefined {
  const field = body.fields.get(name);
  if (field !== undefined) return field;
  return body.files.get(name)?.bytes.toString('utf8');
}

/** A required JSON part (`data_json`, `payload`), parsed; missing or malformed → 400 naming it. */
export function jsonPart(body: MultipartBody, name: string): unknown {
  const text = partText(body, name);
  if (text === undefined) throw invalid({ [name]: withInput('Field required', undefined) });
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw invalid({
      [name]: withInput(`Invalid JSON: ${reason}`, text.length > 200 ? `${text.slice(0, 200)}…` : text),
    });
  }
  refuseDeepJson(value, name);
  return value;
}

/**
 * The OpenAPI description of a multipart body. Marked `x-checked-by-route`, so the app's validator
 * leaves it to the route (which reads the parts itself and checks them with the shared core).
 */
export function multipartBody(description: string, properties: Record<string, unknown>, required: readonly string[]) {
  return { type: 'object', 'x-checked-by-route': true, description, properties, required } as const;
}

/** The OpenAPI description of a JSON body that the route checks with the shared core itself. */
export function routeCheckedJsonBody(description: string, schema: object) {
  return { ...schema, 'x-checked-by-route': true, description } as const;
}

export function isCheckedByRoute(schema: unknown): boolean {
  return (
    typeof schema === 'object' && schema !== null && (schema as Record<string, unknown>)['x-checked-by-route'] === true
  );
}
