// Checks an answer of the real server against the shared wire contract (shared/contract): the
// operation is found by method and path, the status must be documented, and the body must match
// its schema. The harness runs this on every answer, so every API test is also a contract test.
import { Ajv } from 'ajv';
import { errorBody, errorResponses, operations } from '../../shared/contract/index.ts';

const ajv = new Ajv({ allErrors: true, strict: false });
const validators = new Map<object, ReturnType<Ajv['compile']>>();
function validatorOf(schema: object): ReturnType<Ajv['compile']> {
  let validate = validators.get(schema);
  if (validate === undefined) {
    validate = ajv.compile(schema);
    validators.set(schema, validate);
  }
  return validate;
}

interface Route {
  key: string;
  method: string;
  pattern: RegExp;
  literals: number;
  wildcard: boolean;
}

/** Literal segments win over parameters (`.../override` over `.../{kind}`), and parameters over a wildcard, as in fastify's router. */
const routes: Route[] = Object.keys(operations)
  .map((key) => {
    const [method, path] = key.split(' ') as [string, string];
    const segments = path.split('/').slice(1);
    const source = segments
      .map((segment) => (segment === '*' ? '.+' : segment.startsWith('{') ? '[^/]+' : segment.replace(/[.]/g, '\\.')))
      .join('/');
    return {
      key,
      method,
      pattern: new RegExp(`^/api/v2/${source}/?$`),
      literals: segments.filter((segment) => !segment.startsWith('{') && segment !== '*').length,
      wildcard: segments.includes('*'),
    };
  })
  // A wildcard (the rest of the path, slashes and all) loses to every route without one.
  .sort((a, b) => b.literals - a.literals || Number(a.wildcard) - Number(b.wildcard));

export function operationOf(method: string, path: string): string | undefined {
  const bare = path.split('?')[0];
  return routes.find((route) => route.method === method && route.pattern.test(bare))?.key;
}

/** What is wrong with this answer, or undefined when the contract allows it. */
export function contractFailure(
  method: string,
  requested: string,
  status: number,
  contentType: string,
  body: unknown,
  text: string,
): string | undefined {
  // The path the server saw: the HTTP client resolves dot segments (`/api/v2/a/../..` is `/`).
  const path = new URL(requested, 'http://server.invalid').pathname;
  // Outside the API: the readiness probe, the web pages, and the interactive API reference under
  // /api/v2/doc/ (pages and their assets, not operations).
  if (!path.startsWith('/api/v2') || /^\/api\/v2\/doc(\/|$)/.test(path)) return undefined;
  const key = operationOf(method, path);
  const documented: Record<string, object> =
    key === undefined ? { 404: errorBody, 405: errorBody } : { ...errorResponses, ...operations[key]!.responses };
  const schema = documented[String(status)] ?? documented[`${String(status)[0]}xx`];
  const where = `${method} ${path} → ${status} (${key ?? 'no operation'})`;
  if (schema === undefined) return `${where}: status not documented`;
  if ('content' in schema) {
    const types = Object.keys(schema.content as object);
    return types.some((type) => contentType.startsWith(type))
      ? undefined
      : `${where}: content type ${contentType}, documented ${types.join(', ')}`;
  }
  if (!contentType.startsWith('application/json')) return `${where}: content type ${contentType}, not JSON`;
  let value: unknown = body;
  if (value === undefined) {
    try {
      value = JSON.parse(text);
    } catch {
      return `${where}: body is not JSON: ${text.slice(0, 200)}`;
    }
  }
  const validate = validatorOf(schema);
  if (validate(value)) return undefined;
  return `${where}: ${ajv.errorsText(validate.errors, { separator: '; ' })}\n${text.slice(0, 600)}`;
}

/**
 * `text` parsed and checked against a schema, as T (the type derived from that schema): for JSON the
 * tests read outside an API answer (an audit package's files against the contract's schemas, a
 * webhook payload against what the test reads of it). Throws naming what does not match, so a test
 * cannot read a value as a type it does not have.
 */
export function parsedAs<T>(schema: object, text: string): T {
  const validate = ajv.compile<T>(schema);
  const value: unknown = JSON.parse(text);
  if (validate(value)) return value;
  throw new Error(`not as its schema describes: ${ajv.errorsText(validate.errors, { separator: '; ' })}`);
}
