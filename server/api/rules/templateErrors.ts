// Begin-trail template errors use pydantic's multi-line text instead of field errors (reference
// §1.2): `<N> validation errors for Template`, then a location line and an indented message each.
import type { FieldErrors } from '../errors.ts';

/** `trail.attestations[0].name` → `trail.attestations.0.name` (pydantic's location form). */
function locationOf(key: string): string {
  return key.replace(/\[(\d+)\]/g, '.$1');
}

export function templateErrorText(errors: FieldErrors): string {
  const entries = Object.entries(errors);
  const heading = `${entries.length} validation error${entries.length === 1 ? '' : 's'} for Template`;
  return [heading, ...entries.flatMap(([key, message]) => [locationOf(key), `  ${message}`])].join('\n');
}
