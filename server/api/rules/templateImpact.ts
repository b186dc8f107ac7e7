// Template impact preview (project extension), the evaluation itself: every trail of a flow judged
// twice by the shared core, under the template it was begun with and under the edited template,
// tallied page by page. The answer is bounded whatever the flow: transitions are counted, at most
// `listLimit` changed trails are listed, each with at most LISTED_DETAILS of its changed slots.
import {
  evaluateTrail,
  trailImpact,
  type ComplianceState,
  type TrailImpact,
  type TrailTemplate,
} from '../../../shared/compliance/index.ts';
import { LISTED_DETAILS } from '../../../shared/contract/index.ts';
import type { TrailRows } from '../store/trailEvaluations.ts';

export interface TemplateImpact {
  flow: string;
  trails: number;
  transitions: Array<{ before: ComplianceState; after: ComplianceState; count: number }>;
  changed_total: number;
  changed: Array<{ trail: string; changed_slots_total: number } & TrailImpact>;
}

export interface ImpactTally {
  /** Judges one page of trails. */
  add(trails: readonly TrailRows[]): void;
  /** What the pages added so far come to. */
  result(flow: string): TemplateImpact;
}

/** A tally of what the template `edited` (stored as `editedId`) does to the trails added to it. */
export function impactTallyOf(edited: TrailTemplate, editedId: string, listLimit: number): ImpactTally {
  const transitions = new Map<string, { before: ComplianceState; after: ComplianceState; count: number }>();
  const changed: TemplateImpact['changed'] = [];
  let trails = 0;
  let changedTotal = 0;
  return {
    add(page) {
      for (const trail of page) {
        const now = evaluateTrail(
          trail.template,
          trail.attestations,
          trail.artifacts,
          trail.lastModifiedAt,
          trail.templateId,
        ).compliance_status;
        const next = evaluateTrail(
          edited,
          trail.attestations,
          trail.artifacts,
          trail.lastModifiedAt,
          editedId,
        ).compliance_status;
        const impact = trailImpact(now, next);
        trails += 1;
        const key = `${impact.before}>${impact.after}`;
        const transition = transitions.get(key);
        if (transition === undefined) transitions.set(key, { before: impact.before, after: impact.after, count: 1 });
        else transition.count += 1;
        if (impact.before === impact.after && impact.changed_slots.length === 0) continue;
        changedTotal += 1;
        if (changed.length < listLimit)
          changed.push({
            trail: trail.name,
            before: impact.before,
            after: impact.after,
            changed_slots: impact.changed_slots.slice(0, LISTED_DETAILS),
            changed_slots_total: impact.changed_slots.length,
          });
      }
    },
    result: (flow) => ({ flow, trails, transitions: [...transitions.values()], changed_total: changedTotal, changed }),
  };
}
