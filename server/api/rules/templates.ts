// Flow templates from their text, through the shared core: the stored form, or the findings as
// the API's field errors.
import { templateOf } from '../../../shared/templates/index.ts';
import { validateText } from '../../../shared/validate.ts';
import { stringify } from 'yaml';
import { invalid, type FieldErrors } from '../errors.ts';
import { fieldErrorsOf } from '../http/requestBodies.ts';
import { newId } from '../ids.ts';
import type { StoredTemplate } from '../store/flows.ts';

export const EMPTY_TEMPLATE = 'version: 1\n';

export type TemplateVerdict =
  { template: StoredTemplate; errors?: undefined } | { template?: undefined; errors: FieldErrors };

/** Parses and checks a template text; errors are keyed by field path (`trail.attestations[0].name`). */
export function templateFromText(text: string, emptyKey = 'template_file'): TemplateVerdict {
  const { value, findings } = validateText('flow-template', text);
  const errors = fieldErrorsOf(findings, value, emptyKey, text);
  if (Object.keys(errors).length > 0) return { errors };
  return { template: { id: newId(), content: text, parsed: templateOf(value) } };
}

export function templateOrInvalid(text: string): StoredTemplate {
  const verdict = templateFromText(text);
  if (verdict.errors !== undefined) throw invalid(verdict.errors);
  return verdict.template;
}

/**
 * The template of the legacy create (reference §2.1): one artifact named `artifact` whose
 * attestations are the other listed names, of any type.
 */
export function legacyTemplateText(names: readonly string[]): string {
  const attestations = [...new Set(names.map((name) => name.trim()))]
    .filter((name) => name !== '' && name !== 'artifact')
    .map((name) => ({ name, type: '*' }));
  return stringify({ version: 1, trail: { artifacts: [{ name: 'artifact', attestations }] } });
}
