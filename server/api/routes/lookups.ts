// The not-found rules every route shares, with the hosted service's exact messages (reference §1.2).
import { notFound } from '../errors.ts';
import type { Org } from '../store/orgs.ts';
import type { Flow } from '../store/flows.ts';
import type { Store } from '../store/index.ts';
import type { Trail } from '../store/trails.ts';

function flowNotFound(org: Org, flowName: string) {
  return notFound(`Flow named '${flowName}' does not exist for organization '${org.name}'`);
}

export function flowOr404(store: Store, org: Org, flowName: string): Flow {
  const flow = store.flows.byName(org.id, flowName);
  if (flow === undefined) throw flowNotFound(org, flowName);
  return flow;
}

export function trailOr404(store: Store, org: Org, flow: Flow, trailName: string): Trail {
  const trail = store.trails.byName(flow.id, trailName);
  if (trail === undefined) throw notFound(`Trail with name '${trailName}' does not exist for Organization '${org.name}' and Flow '${flow.name}'`);
  return trail;
}
