// Flow templates from their text, through the shared core: the stored form, or the findings as
// the API's field errors.
import { templateOf } from '../../../shared/templates/index.ts';
import { validateText } from '../../../shared/validate.ts';
import { stringify } from 'yaml';
import { refused, type FieldErrors } from '../errors.ts';
import { fieldErrorsOf, refusalStatusOf } from '../fieldErrors.ts';
import { newId } from '../ids.ts';
import { failedUnionsOf, type FailedUnions } from './templateErrors.ts';
import type { StoredTemplate } from '../store/flows.ts';

export const EMPTY_TEMPLATE = 'version: 1\n';

export type TemplateVerdict =
  | { template: StoredTemplate; errors?: undefined }
  | { template?: undefined; errors: FieldErrors; unions: FailedUnions; status: 400 | 413 };

/**
 * Parses and checks a template text; errors are keyed by field path (`trail.attestations[0].name`),
 * with the status of their refusal (413 for a template over a size limit, else 400).
 */
export function templateFromText(text: string, emptyKey = 'template_file'): TemplateVerdict {
  const { value, findings } = validateText('flow-template', text);
  const errors = fieldErrorsOf(findings, value, emptyKey, text);
  if (Object.keys(errors).length > 0)
    return { errors, unions: failedUnionsOf(findings), status: refusalStatusOf(findings) };
  return { template: { id: newId(), content: text, parsed: templateOf(value) } };
}

/** The stored form of a valid template; the refusal (400 or 413, with the field errors) otherwise. */
export function templateOrInvalid(text: string, emptyKey?: string): StoredTemplate {
  const verdict = templateFromText(text, emptyKey);
  if (verdict.errors !== undefined) throw refused(verdict.errors, verdict.status);
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
