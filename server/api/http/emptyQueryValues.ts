// Empty query values (reference §8.3 item 14): `?trail=` or `?repo_name=` filters nothing, as the
// hosted service ignores them, instead of looking for the empty name. An empty value of an
// enumerated parameter (`?type=`, `?provider=`), of one with a pattern (`?flow_name=`, whose
// pattern the spec gives), a number or a boolean stays, and the schema refuses it as any other
// wrong value. A parameter whose empty value says something of its own (an
// empty search, an empty interval bound) is marked EMPTY_KEPT and keeps it for its route to answer.

/** The schema keyword of a free-text query parameter whose empty value is kept. */
export const EMPTY_KEPT = 'x-empty-kept';

interface ParameterSchema {
  type?: unknown;
  enum?: unknown;
  pattern?: unknown;
  items?: ParameterSchema;
  [EMPTY_KEPT]?: boolean;
}

/** A string parameter of no fixed set or shape of values, whose empty value means "no filter". */
function isFreeText(schema: ParameterSchema | undefined): boolean {
  return (
    schema?.type === 'string' &&
    schema.enum === undefined &&
    schema.pattern === undefined &&
    schema[EMPTY_KEPT] !== true
  );
}

/** Removes, in place, the empty values of the query's free-text parameters, before the schema checks the query. */
export function dropEmptyValues(query: unknown, schema: { properties?: Record<string, ParameterSchema> }): void {
  if (query === null || typeof query !== 'object') return;
  const values = query as Record<string, unknown>;
  for (const [name, parameter] of Object.entries(schema.properties ?? {})) {
    const value = values[name];
    if (isFreeText(parameter)) {
      if (value === '') delete values[name];
    } else if (parameter.type === 'array' && isFreeText(parameter.items)) {
      const kept = [value].flat().filter((item) => item !== '');
      if (kept.length === 0 && value !== undefined) delete values[name];
      else if (Array.isArray(value)) values[name] = kept;
    }
  }
}
