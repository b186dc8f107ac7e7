// Template impact preview (project extension): every trail of a flow evaluated twice by the shared
// core, under the template it was begun with and under an edited template text, page by page, so
// a flow of any size is answered in bounded memory. Reads only; nothing is stored.
import {
  evaluateTrail,
  trailImpact,
  type ComplianceState,
  type TrailImpact,
  type TrailTemplate,
} from '../../../shared/compliance/index.ts';
import { invalid } from '../errors.ts';
import { templateFromText } from '../rules/templates.ts';
import type { Flow } from '../store/flows.ts';
import type { Store } from '../store/index.ts';
import type { TrailCursor } from '../store/trailEvaluations.ts';

/** Trails read and evaluated per round trip to the store. */
const PAGE_SIZE = 500;

export interface TemplateImpact {
  flow: string;
  trails: number;
  transitions: Array<{ before: ComplianceState; after: ComplianceState; count: number }>;
  changed_total: number;
  changed: Array<{ trail: string } & TrailImpact>;
}

/** What `templateText` would do to the flow's trails; a template with errors answers 400 with them, keyed under `template`. */
export async function templateImpactOf(
  store: Store,
  flow: Flow,
  templateText: string,
  listLimit: number,
): Promise<TemplateImpact> {
  const verdict = templateFromText(templateText, 'template');
  if (verdict.errors !== undefined) throw invalid(verdict.errors);
  const edited = verdict.template.parsed as TrailTemplate;
  const transitions = new Map<string, { before: ComplianceState; after: ComplianceState; count: number }>();
  const changed: TemplateImpact['changed'] = [];
  let trails = 0;
  let changedTotal = 0;
  let cursor: TrailCursor | undefined;
  do {
    // A turn of the event loop per page: the store may answer without one (SQLite reads are
    // synchronous), and other requests must be served meanwhile.
    if (cursor !== undefined) await new Promise((resolve) => setImmediate(resolve));
    const page = await store.trailEvaluations.pageOfFlow(flow.id, PAGE_SIZE, cursor);
    cursor = page.next;
    for (const trail of page.trails) {
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
        verdict.template.id,
      ).compliance_status;
      const impact = trailImpact(now, next);
      trails += 1;
      const key = `${impact.before}>${impact.after}`;
      const transition = transitions.get(key);
      if (transition === undefined) transitions.set(key, { before: impact.before, after: impact.after, count: 1 });
      else transition.count += 1;
      if (impact.before === impact.after && impact.changed_slots.length === 0) continue;
      changedTotal += 1;
      if (changed.length < listLimit) changed.push({ trail: trail.name, ...impact });
    }
  } while (cursor !== undefined);
  return { flow: flow.name, trails, transitions: [...transitions.values()], changed_total: changedTotal, changed };
}
