// What a failed request tells the user: the server's own `message` and `errors`, never a stack.

/** A failure answered by the server (any status other than 200/201) or a failure to reach it. */
export class ApiError extends Error {
  readonly status: number;
  readonly errors: Record<string, string>;

  constructor(status: number, message: string, errors: Record<string, string> = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.errors = errors;
  }

  /** The message followed by the field errors sorted by field, as the official CLI prints them. */
  get detail(): string {
    const fields = Object.keys(this.errors).sort();
    if (fields.length === 0) return this.message;
    return `${this.message}: ${fields.map((field) => `${field}: ${this.errors[field]}`).join('; ')}`;
  }

  /** True when the server could not be reached at all (status 0). */
  get unreachable(): boolean {
    return this.status === 0;
  }
}

/** Builds the error for a non-success response from its body, whatever shape the body has. */
export function apiErrorFromBody(status: number, statusText: string, body: string): ApiError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    const text = body.trim();
    return new ApiError(status, text === '' ? `${status} ${statusText}`.trim() : text.slice(0, 500));
  }
  if (typeof parsed === 'string') return new ApiError(status, parsed);
  if (parsed !== null && typeof parsed === 'object' && 'message' in parsed) {
    const record = parsed as { message: unknown; errors?: unknown };
    return new ApiError(status, withoutRouteHint(String(record.message)), stringErrors(record.errors));
  }
  return new ApiError(status, JSON.stringify(parsed));
}

function stringErrors(errors: unknown): Record<string, string> {
  if (errors === null || typeof errors !== 'object' || Array.isArray(errors)) return {};
  const out: Record<string, string> = {};
  for (const [field, message] of Object.entries(errors))
    out[field] = typeof message === 'string' ? message : JSON.stringify(message);
  return out;
}

/** Like the official CLI, drops the server's "You have requested this URI …" hint (reference §1.2). */
function withoutRouteHint(message: string): string {
  const at = message.indexOf('You have requested');
  return at < 0 ? message : message.slice(0, at).trim();
}
