// Templates and policies from their text, read and checked by an evaluation worker: the shared
// core's parse and checks take up to a second or two on a text at the size limit, which the event
// loop must not spend (uploads, trails begun with their own template).
import type { Evaluations } from '../evaluation/pool.ts';
import type { PolicyRefusal } from '../evaluation/requests.ts';
import { refused } from '../errors.ts';
import type { TemplateVerdict } from '../rules/templates.ts';
import type { StoredTemplate } from '../store/flows.ts';

const READING_TEMPLATE = 'Reading the template';

/** The template's stored form, or its errors keyed by field path (`emptyKey` for the whole text). */
export async function templateVerdictOf(
  evaluations: Evaluations,
  text: string,
  emptyKey?: string,
): Promise<TemplateVerdict> {
  return await evaluations.ask(READING_TEMPLATE, 'template', { text, emptyKey });
}

/** The template's stored form; its refusal (400, or 413 over a size limit) otherwise. */
export async function templateOrRefusal(evaluations: Evaluations, text: string): Promise<StoredTemplate> {
  return storedOrRefused(await templateVerdictOf(evaluations, text));
}

/** The legacy create's template (rules/templates.ts legacyTemplateText) of these attestation names. */
export async function legacyTemplateOf(evaluations: Evaluations, names: string[]): Promise<StoredTemplate> {
  return storedOrRefused(await evaluations.ask(READING_TEMPLATE, 'legacy-template', { names }));
}

function storedOrRefused(verdict: TemplateVerdict): StoredTemplate {
  if (verdict.errors !== undefined) throw refused(verdict.errors, verdict.status);
  return verdict.template;
}

/** The policy text's value; its refusal (rules/policyText.ts) otherwise, keyed under `field`. */
export async function policyValueOf(
  evaluations: Evaluations,
  text: string,
  field: string,
  refusal: PolicyRefusal,
): Promise<unknown> {
  return await evaluations.ask('Reading the policy', 'policy', { text, field, refusal });
}
