// Template impact preview (project extension): every trail of a flow evaluated twice, under the
// template it was begun with and under an edited template text, page by page, so a flow of any size
// is answered in bounded memory. The pages are read here and evaluated by an evaluation worker
// (rules/templateImpact.ts), within its budget. Reads only; nothing is stored.
import type { Evaluations } from '../evaluation/pool.ts';
import type { TemplateImpact } from '../rules/templateImpact.ts';
import type { Flow } from '../store/flows.ts';
import type { Store } from '../store/index.ts';
import type { TrailCursor } from '../store/trailEvaluations.ts';

/** Trails read and evaluated per round trip to the store and to the worker. */
const PAGE_SIZE = 500;

/**
 * What `templateText` would do to the flow's trails; a template with errors answers 400 (413 over a
 * size limit) with them, keyed under `template`; an evaluation over its budget answers 422.
 */
export async function templateImpactOf(
  store: Store,
  evaluations: Evaluations,
  flow: Flow,
  templateText: string,
  listLimit: number,
): Promise<TemplateImpact> {
  return await evaluations.run('The template impact', async (worker) => {
    await worker.ask('impact-begin', { text: templateText, listLimit });
    let cursor: TrailCursor | undefined;
    do {
      const page = await store.trailEvaluations.pageOfFlow(flow.id, PAGE_SIZE, cursor);
      cursor = page.next;
      await worker.ask('impact-page', { trails: page.trails });
    } while (cursor !== undefined);
    return await worker.ask('impact-end', { flow: flow.name });
  });
}
