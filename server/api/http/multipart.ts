// Reads a multipart request into named fields and files. Files stream through
// @fastify/multipart's size limit (10 MiB), so an oversize upload is refused with 413 while it
// arrives, without being held whole; text fields are held to 1 MiB the same way. A request takes
// only the parts its operation declares, each once: any other is refused with 400 naming it as
// soon as it arrives, and the rest of the body is then read and dropped, never held.
import type { FastifyRequest } from 'fastify';
import { ApiError, invalid, withInput } from '../errors.ts';
import type { UploadedFile } from '../uploads.ts';
import { refuseDeepJson } from './jsonDepthLimit.ts';

export interface MultipartBody {
  fields: Map<string, string>;
  files: Map<string, UploadedFile>;
}

export const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** A text field: a JSON part, or a template, policy or schema sent as text (a larger one goes as a file). */
export const MAX_FIELD_BYTES = 1024 * 1024;
/** Longest file name taken, in characters, as file systems commonly allow. */
export const MAX_FILENAME_CHARACTERS = 255;

/**
 * busboy's limits for every multipart request. The operations declare at most three parts and
 * take each once, so these counts are never reached by a request that could succeed.
 */
export const MULTIPART_LIMITS = {
  fileSize: MAX_FILE_BYTES,
  fieldSize: MAX_FIELD_BYTES,
  fieldNameSize: 100,
  files: 4,
  fields: 4,
  parts: 8,
  headerPairs: 20,
} as const;

const MB = 1024 * 1024;

/** The parts the route's multipart body declares (its OpenAPI description is the one list). */
function declaredPartsOf(request: FastifyRequest, jsonPartName: string): string[] {
  const body = request.routeOptions.schema?.body as { properties?: Record<string, unknown> } | undefined;
  return body?.properties === undefined ? [jsonPartName] : Object.keys(body.properties);
}

/** A file name that can be stored and sent back in a header: no control characters (NUL, line breaks), not too long. */
function fileNameProblemOf(filename: string): string | undefined {
  if (/\p{Cc}/u.test(filename)) return 'File name must not contain control characters (such as NUL or a line break)';
  if ([...filename].length > MAX_FILENAME_CHARACTERS)
    return `File name must be at most ${MAX_FILENAME_CHARACTERS} characters`;
  return undefined;
}

/** The part refused, as a 400 naming it; undefined when the operation takes it. */
function refusalOf(name: string, declared: readonly string[], body: MultipartBody): ApiError | undefined {
  if (!declared.includes(name))
    return invalid(
      { [name]: withInput('Extra inputs are not permitted', undefined) },
      `Unknown multipart part '${name}': this operation takes ${declared.join(', ')}`,
    );
  if (body.fields.has(name) || body.files.has(name))
    return invalid(
      { [name]: withInput('Sent more than once', undefined) },
      `Multipart part '${name}' is sent more than once`,
    );
  return undefined;
}

/** What a failure of the multipart parser says to the client. */
function parserFailureOf(error: unknown): ApiError {
  const { code, statusCode, message } = error as { code?: unknown; statusCode?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : String(error);
  if (code === 'FST_REQ_FILE_TOO_LARGE')
    return new ApiError(413, `Request part too large: files are limited to ${MAX_FILE_BYTES / MB} MB (${text})`);
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT')
    return new ApiError(413, `Too many multipart parts (${text})`);
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) return new ApiError(statusCode, text);
  return new ApiError(400, `Malformed multipart body: ${text}`);
}

/**
 * The parts of a multipart request. Any other body is refused the way the hosted service refuses
 * it (reference §1.2): its required JSON part (`data_json`, `payload`) is missing, 400.
 */
export async function readMultipart(request: FastifyRequest, jsonPartName: string): Promise<MultipartBody> {
  if (!request.isMultipart()) throw invalid({ [jsonPartName]: withInput('Field required', undefined) });
  const declared = declaredPartsOf(request, jsonPartName);
  const body: MultipartBody = { fields: new Map(), files: new Map() };
  try {
    for await (const part of request.parts()) {
      const refused = refusalOf(part.fieldname, declared, body);
      if (refused !== undefined) throw refused;
      if (part.type === 'file') {
        const problem = fileNameProblemOf(part.filename);
        if (problem !== undefined) throw invalid({ [part.fieldname]: withInput(problem, part.filename) });
        const bytes = await part.toBuffer();
        body.files.set(part.fieldname, { filename: part.filename, bytes });
      } else {
        if (part.valueTruncated || part.fieldnameTruncated)
          throw new ApiError(
            413,
            `Multipart part '${part.fieldname}' is too large: text parts are limited to ${MAX_FIELD_BYTES / MB} MB (send it as a file part, up to ${MAX_FILE_BYTES / MB} MB)`,
          );
        body.fields.set(part.fieldname, typeof part.value === 'string' ? part.value : JSON.stringify(part.value));
      }
    }
  } catch (error) {
    // The rest of the body is read and dropped (the parser would otherwise keep holding the parts
    // that follow), so the answer reaches the client on a connection that stays usable.
    request.raw.unpipe();
    request.raw.resume();
    throw error instanceof ApiError ? error : parserFailureOf(error);
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
