// The lookups the services share, each failing with the hosted service's exact 404 (notFound.ts).
import type { Trigger } from '../delivery/notifications.ts';
import { badRequest } from '../errors.ts';
import {
  actionNotFound,
  controlNotFound,
  environmentNotFound,
  flowNotFound,
  policyNotFound,
  repoNotFound,
  trailNotFound,
} from '../notFound.ts';
import type { Action } from '../store/actions.ts';
import type { Control } from '../store/controls.ts';
import type { Environment } from '../store/environments.ts';
import type { Flow } from '../store/flows.ts';
import type { Store } from '../store/index.ts';
import type { Org } from '../store/orgs.ts';
import type { RepoInfo } from '../store/repos.ts';
import type { Trail } from '../store/trails.ts';

/**
 * A live flow whose attestations are listed, or the spec's own 404 for that list (`Flow not
 * found`, api-v2's errors of spec endpoint 5), shorter than every other lookup's.
 */
export async function listedFlowOr404(store: Store, org: Org, flowName: string): Promise<Flow> {
  const flow = await store.flows.byName(org.id, flowName);
  if (flow === undefined) throw flowNotFound(org.name, flowName, 'short');
  return flow;
}

export async function flowOr404(store: Store, org: Org, flowName: string): Promise<Flow> {
  const flow = await store.flows.byName(org.id, flowName);
  if (flow === undefined) throw flowNotFound(org.name, flowName);
  return flow;
}

export async function trailOr404(store: Store, org: Org, flow: Flow, trailName: string): Promise<Trail> {
  const trail = await store.trails.byName(flow.id, trailName);
  if (trail === undefined) throw trailNotFound(org.name, flow.name, trailName);
  return trail;
}

/** Where a write about a trail goes, and the actions it triggers. */
export interface TrailPlaceFound {
  flowId: string;
  trailId: string;
  flowName: string;
  trailName: string;
  /** The flow's live actions with the write's trigger. */
  triggered: Action[];
}

/**
 * The ids and names of a live flow's trail, as flowOr404 then trailOr404 find them (their 404s
 * too), and the flow's actions with `trigger`, in one statement that reads neither row whole:
 * what a write about the trail needs.
 */
export async function trailPlaceOr404(
  store: Store,
  org: Org,
  flowName: string,
  trailName: string,
  trigger: Trigger,
): Promise<TrailPlaceFound> {
  const place = await store.trails.placeByNames(org.id, flowName, trailName, trigger);
  if (place === undefined) throw flowNotFound(org.name, flowName);
  if (place.trail === undefined) throw trailNotFound(org.name, place.flowName, trailName);
  return {
    flowId: place.flowId,
    trailId: place.trail.id,
    flowName: place.flowName,
    trailName: place.trail.name,
    triggered: place.triggered,
  };
}

/** A live environment, or 404 (get, archive, rename, snapshots, events…; reports and the audit log say it short). */
export async function environmentOr404(
  store: Store,
  org: Org,
  name: string,
  wording: 'long' | 'short' = 'long',
): Promise<Environment> {
  const environment = await store.environments.byName(org.id, name);
  if (environment === undefined) throw environmentNotFound(org.name, name, wording);
  return environment;
}

/** A control (archived ones too), or 404. */
export async function controlOr404(store: Store, org: Org, identifier: string): Promise<Control> {
  const control = await store.controls.byIdentifier(org.id, identifier);
  if (control === undefined) throw controlNotFound(org.name, identifier);
  return control;
}

/** What narrows a repo name that several providers share. */
export interface RepoNarrowing {
  provider?: string;
  id?: string;
}

/** The one repo of `repos` with that name (narrowed by provider or id), or 404; 400 when the name alone is ambiguous. */
export function repoNamed(repos: readonly RepoInfo[], name: string, narrowing: RepoNarrowing): RepoInfo {
  const matches = repos
    .filter((repo) => repo.name === name)
    .filter((repo) => narrowing.provider === undefined || repo.provider === narrowing.provider)
    .filter((repo) => narrowing.id === undefined || repo.id === narrowing.id);
  if (matches.length === 0) throw repoNotFound(name);
  if (matches.length > 1) {
    const providers = [
      ...new Set(matches.map((repo) => (typeof repo.provider === 'string' ? repo.provider : 'unknown'))),
    ].join(', ');
    throw badRequest(
      `Multiple repos named '${name}' exist (${providers}). Specify the 'provider' (or the 'id') to choose one.`,
    );
  }
  return matches[0];
}

/** 404 for a repo no artifact of the org was reported from: the artifact list and the environment events filter by it. */
export async function reportedRepoOr404(store: Store, org: Org, repoName: string): Promise<void> {
  if (!(await store.artifacts.repoExists(org.id, repoName))) throw repoNotFound(repoName);
}

/** The policies `found` for `names`, once each in the order named, or 404 for the first name not found. */
export function namedPoliciesOr404<P extends { name: string }>(
  org: Org,
  names: readonly string[],
  found: readonly P[],
): P[] {
  return [...new Set(names)].map((name) => {
    const policy = found.find((candidate) => candidate.name === name);
    if (policy === undefined) throw policyNotFound(org.name, name);
    return policy;
  });
}

/** A live action by number, or 404. */
export async function actionOr404(store: Store, org: Org, number: number): Promise<Action> {
  const action = await store.actions.byNumber(org.id, number);
  if (action === undefined) throw actionNotFound(org.name, number);
  return action;
}
