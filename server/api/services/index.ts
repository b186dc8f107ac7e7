// Every service of the API server, made once per server from what they depend on. http/ holds this
// object and nothing below it: a route parses, authorizes, calls one service and renders its answer.
import type { Deliverer } from '../delivery/deliverer.ts';
import type { Evaluations } from '../evaluation/pool.ts';
import type { ConfiguredKey } from '../options.ts';
import type { Store } from '../store/index.ts';
import { accessService } from './access.ts';
import { actionService } from './actions.ts';
import { artifactService } from './artifacts.ts';
import { assertService } from './asserts.ts';
import { attestationService } from './attestations.ts';
import { auditPackageService } from './auditPackages.ts';
import { buildService } from './builds.ts';
import { controlService } from './controls.ts';
import { customTypeService } from './customTypes.ts';
import { deploymentService } from './deployments.ts';
import { environmentService } from './environments.ts';
import { flowService } from './flows.ts';
import { organizationService } from './organizations.ts';
import { overviewService } from './overview.ts';
import { policyService } from './policies.ts';
import { previewService } from './previews.ts';
import { readinessService } from './readiness.ts';
import { reportService } from './reports.ts';
import { repoService } from './repos.ts';
import { searchService } from './search.ts';
import { serviceAccountService } from './serviceAccounts.ts';
import { snapshotService } from './snapshots.ts';
import { tagService } from './tags.ts';
import { trailService } from './trails.ts';
import { userService } from './users.ts';

/** What the services are made from: the store, the evaluation threads, the webhook deliverer and the server's settings. */
export interface ServiceDeps {
  store: Store;
  /** Where documents are read and previews evaluated, off the event loop and within a budget. */
  evaluations: Evaluations;
  /** The base of html_url values: --public-url, else the listen URL (known once listening). */
  publicUrl: () => string;
  /** Makes the webhook deliveries stored in the outbox; woken when a transaction commits some. */
  deliverer: Deliverer;
  /** Webhooks may go to loopback, private and link-local addresses too (`--allow-private-webhooks`). */
  allowPrivateWebhooks: boolean;
  /** The keys the server was started with (the admin key and --config's), each with its orgs and role. */
  configuredKeys: readonly ConfiguredKey[];
  /** A warning when the disk the server writes to is nearly full. */
  freeSpaceWarning?: () => Promise<string | undefined>;
}

export function servicesOf(deps: ServiceDeps) {
  return {
    access: accessService(deps),
    actions: actionService(deps),
    artifacts: artifactService(deps),
    asserts: assertService(deps),
    attestations: attestationService(deps),
    auditPackages: auditPackageService(deps),
    builds: buildService(deps),
    controls: controlService(deps),
    customTypes: customTypeService(deps),
    deployments: deploymentService(deps),
    environments: environmentService(deps),
    flows: flowService(deps),
    organizations: organizationService(deps),
    overview: overviewService(deps),
    policies: policyService(deps),
    previews: previewService(deps),
    readiness: readinessService(deps),
    reports: reportService(deps),
    repos: repoService(deps),
    search: searchService(deps),
    serviceAccounts: serviceAccountService(deps),
    snapshots: snapshotService(deps),
    tags: tagService(deps),
    trails: trailService(deps),
    users: userService(deps),
  };
}

export type Services = ReturnType<typeof servicesOf>;
