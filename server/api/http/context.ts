// What every route plugin receives besides the fastify instance.
import type { FastifyPluginCallbackJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import type common from '../../../shared/schemas/common.ts';
import type { Deliverer } from '../delivery/deliverer.ts';
import type { Evaluations } from '../evaluation/pool.ts';
import type { Services } from '../services/index.ts';
import type { Store } from '../store/index.ts';

export interface AppContext {
  store: Store;
  /** Where documents are read and previews evaluated, off the event loop and within a budget. */
  evaluations: Evaluations;
  /** The base of html_url values: --public-url, else the listen URL (known once listening). */
  publicUrl: () => string;
  /** A warning when the disk the server writes to is nearly full (the readiness probe shows it). */
  freeSpaceWarning?: () => Promise<string | undefined>;
  /** Makes the webhook deliveries stored in the outbox; woken when a request commits some. */
  deliverer: Deliverer;
  /** Webhooks may go to loopback, private and link-local addresses too (`--allow-private-webhooks`). */
  allowPrivateWebhooks: boolean;
}

export interface RouteOptions {
  context: AppContext;
  services: Services;
}

/**
 * A plugin of routes whose request types come from their schemas (params, querystring, body) as
 * json-schema-to-ts derives them, instead of restated by hand.
 */
export type RoutePlugin = FastifyPluginCallbackJsonSchemaToTs<{
  Options: RouteOptions;
  // Request bodies refer to the shared definitions (names, fingerprints) by $ref.
  ValidatorSchemaOptions: { references: [typeof common] };
}>;
