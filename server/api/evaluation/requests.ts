// What an evaluation worker does (worker.ts runs it; pool.ts sends the requests): reading and
// checking documents and evaluating previews, each a pure rule of rules/. A template impact is a
// session of several requests (begin, a page at a time, end), so a flow of any size is evaluated
// in bounded memory while the main thread reads the next page from the store.
import { normalizePolicy } from '../../../shared/policies/model.ts';
import { refusesUpload } from '../../../shared/verdicts.ts';
import { refused } from '../errors.ts';
import { dryRunOf, type DryRunInput } from '../rules/policyDryRun.ts';
import { policyValueOrInvalid } from '../rules/policyText.ts';
import { impactTallyOf, type ImpactTally } from '../rules/templateImpact.ts';
import { legacyTemplateText, templateFromText, type TemplateVerdict } from '../rules/templates.ts';
import type { TrailRows } from '../store/trailEvaluations.ts';

/** Which findings refuse a policy: an upload's (shared/verdicts.ts), or every error (a dry-run's verdict would fail closed on it). */
export type PolicyRefusal = 'upload' | 'every-error';

/** Each request by kind: what it sends and what it answers. */
export interface Requests {
  template: { send: { text: string; emptyKey?: string }; answer: TemplateVerdict };
  'legacy-template': { send: { names: string[] }; answer: TemplateVerdict };
  policy: { send: { text: string; field: string; refusal: PolicyRefusal }; answer: unknown };
  'impact-begin': { send: { text: string; listLimit: number }; answer: null };
  'impact-page': { send: { trails: TrailRows[] }; answer: null };
  'impact-end': { send: { flow: string }; answer: ReturnType<ImpactTally['result']> };
  'dry-run': { send: { text: string } & DryRunInput; answer: ReturnType<typeof dryRunOf> };
}

export type RequestKind = keyof Requests;
export type Request = { [K in RequestKind]: { kind: K } & Requests[K]['send'] }[RequestKind];

/** The template impact this worker is evaluating, between its begin and its end. */
let impact: ImpactTally | undefined;

function policyValue(text: string, field: string, refusal: PolicyRefusal): unknown {
  return policyValueOrInvalid(text, field, refusal === 'upload' ? refusesUpload : (f) => f.severity === 'error');
}

/** Answers one request; an ApiError thrown here reaches the route as thrown. */
export function answerOf(request: Request): Requests[RequestKind]['answer'] {
  switch (request.kind) {
    case 'template':
      return templateFromText(request.text, request.emptyKey);
    case 'legacy-template':
      return templateFromText(legacyTemplateText(request.names));
    case 'policy':
      return policyValue(request.text, request.field, request.refusal);
    case 'impact-begin': {
      impact = undefined;
      const verdict = templateFromText(request.text, 'template');
      if (verdict.errors !== undefined) throw refused(verdict.errors, verdict.status);
      impact = impactTallyOf(verdict.template.parsed, verdict.template.id, request.listLimit);
      return null;
    }
    case 'impact-page':
      impact!.add(request.trails);
      return null;
    case 'impact-end': {
      const result = impact!.result(request.flow);
      impact = undefined;
      return result;
    }
    case 'dry-run':
      return dryRunOf(normalizePolicy(policyValue(request.text, 'policy', 'every-error')), request);
  }
}
