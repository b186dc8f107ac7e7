// Begin-trail template errors use pydantic's multi-line text instead of field errors (reference
// §1.2): `<N> validation errors for Template`, then a location line and an indented message each.
// A value that fails a union fails each of its alternatives, and pydantic reports one error per
// alternative, its location ending in the alternative's tag (§8.2 item 10): an attestation type
// is a built-in name or a `custom:<name>` reference.
import type { Issue } from '../../../shared/findings.ts';
import { fieldPath } from '../../../shared/findings.ts';
import { attestationTypes, customTypePattern } from '../../../shared/templates/model.ts';
import { quotedChoice } from '../../../shared/text/suggest.ts';
import { withInput, type FieldErrors } from '../errors.ts';

/** One failed alternative of a union: the tag pydantic adds to the location, and the message. */
export interface FailedAlternative {
  tag: string;
  message: string;
}

/** The failed alternatives of each field (keyed as the field errors are) whose value no alternative of a union accepts. */
export type FailedUnions = Record<string, FailedAlternative[]>;

const BUILT_IN_TAG = `literal[${attestationTypes.map((type) => `'${type}'`).join(',')}]`;

/** The unions the findings' values failed: an attestation type neither built in nor a custom reference. */
export function failedUnionsOf(findings: readonly Issue[]): FailedUnions {
  const unions: FailedUnions = {};
  for (const finding of findings) {
    if (finding.code !== 'template/unknown-attestation-type') continue;
    const { type, suggestions } = finding.data as { type: string; suggestions: string[] };
    const hint = suggestions.length > 0 ? `. Did you mean '${suggestions[0]}'?` : '';
    unions[fieldPath(finding.path)] = [
      { tag: BUILT_IN_TAG, message: withInput(`Input should be ${quotedChoice(attestationTypes)}${hint}`, type) },
      {
        tag: 'constrained-str',
        message: withInput(`String should match pattern '${customTypePattern.source}'`, type),
      },
    ];
  }
  return unions;
}

/** `trail.attestations[0].name` → `trail.attestations.0.name` (pydantic's location form). */
function locationOf(key: string): string {
  return key.replace(/\[(\d+)\]/g, '.$1');
}

export function templateErrorText(errors: FieldErrors, unions: FailedUnions = {}): string {
  const lines = Object.entries(errors).flatMap(([key, message]) =>
    (unions[key] ?? [{ tag: undefined, message }]).map((alternative) => ({
      location: alternative.tag === undefined ? locationOf(key) : `${locationOf(key)}.${alternative.tag}`,
      message: alternative.message,
    })),
  );
  const heading = `${lines.length} validation error${lines.length === 1 ? '' : 's'} for Template`;
  return [heading, ...lines.flatMap(({ location, message }) => [location, `  ${message}`])].join('\n');
}
