// The two error bodies of the API (spec §Errors): `{message}` and `{errors: {<field>: <message>}, message}`.
// Routes throw an ApiError; the app's one error handler renders it. Anything else a route throws
// is mapped here too, so bad input never surfaces as a 5xx.

export type FieldErrors = Record<string, string>;

export class ApiError extends Error {
  readonly statusCode: number;
  readonly errors: FieldErrors | undefined;
  constructor(statusCode: number, message: string, errors?: FieldErrors) {
    super(message);
    this.statusCode = statusCode;
    this.errors = errors;
  }

  get body(): { message: string; errors?: FieldErrors } {
    return this.errors === undefined ? { message: this.message } : { errors: this.errors, message: this.message };
  }
}

const PAYLOAD_INVALID = 'Input payload validation failed';
const PAYLOAD_TOO_LARGE = 'Input payload too large';
export const FORBIDDEN = "You don't have permission to access this resource";

export function notFound(message: string): ApiError {
  return new ApiError(404, message);
}

export function badRequest(message: string): ApiError {
  return new ApiError(400, message);
}

export function conflict(message: string): ApiError {
  return new ApiError(409, message);
}

export function forbidden(message = FORBIDDEN): ApiError {
  return new ApiError(403, message);
}

/** A 400 with field errors; the message defaults to the generic payload one. */
export function invalid(errors: FieldErrors, message = PAYLOAD_INVALID): ApiError {
  return new ApiError(400, message, errors);
}

/** A document refused with its field errors: 400, or 413 when it is over a size limit (shared/limits.ts). */
export function refused(errors: FieldErrors, status: 400 | 413): ApiError {
  return new ApiError(status, status === 413 ? PAYLOAD_TOO_LARGE : PAYLOAD_INVALID, errors);
}

/**
 * How pydantic echoes a rejected input after a message: strings as they are, a missing value as
 * `None`, anything else as compact JSON.
 */
export function echo(value: unknown): string {
  if (value === undefined) return 'None';
  if (typeof value === 'string') return value;
  if (value === null) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  // Inputs are parsed JSON or text; anything JSON cannot write (a function, a cycle) is named by its kind.
  try {
    return JSON.stringify(value) ?? `(${typeof value})`;
  } catch {
    return `(${typeof value})`;
  }
}

/** `<message> [input: <echo>]`, the value format of every `errors` entry. */
export function withInput(message: string, input: unknown): string {
  return `${message} [input: ${echo(input)}]`;
}
