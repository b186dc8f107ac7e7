// Environments (reference §2.5), their allowlists (§2.17) and the tags route (§2.13).
import type { FastifyPluginCallback } from 'fastify';
import { bodySchema } from '../requestBodies.ts';
import type { BodyOf } from '../../../../shared/schemas/index.ts';
import { orgOf, principalOf } from '../auth.ts';
import type { AppContext, RouteOptions } from '../context.ts';
import { badRequest, forbidden, invalid, notFound, withInput } from '../../errors.ts';
import { nowSeconds } from '../../clock.ts';
import { environmentNotFound, environmentOr404 } from '../../services/lookups.ts';
import { pageLinks, pageOf, pageQueryOf, paginationOf } from '../../views/paging.ts';
import { htmlUrl } from '../../views/urls.ts';
import { sendJsonString } from '../replies.ts';
import { deliverSoon } from '../../delivery/notifications.ts';
import { allowArtifact, changePolicies, recordCombinedSnapshot } from '../../services/snapshotting.ts';
import type { OutboxDelivery } from '../../store/outbox.ts';
import { renderEach } from '../../views/placeholders.ts';
import type { Environment, EnvironmentQuery } from '../../store/environments.ts';
import type { Org } from '../../store/orgs.ts';
import { envParams } from './params.ts';

const listQuery = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    type: { type: 'array', items: { type: 'string' } },
    space_id: { type: 'string' },
    tag: { type: 'string' },
    sort: { type: 'string', enum: ['name', 'last_modified_at', 'last_changed_at'] },
    sort_direction: { type: 'string', enum: ['asc', 'desc'] },
    ...pageQueryOf(50),
  },
} as const;

const TAG_RESOURCES: Record<string, 'flow' | 'environment' | 'control' | 'repo'> = {
  flow: 'flow',
  flows: 'flow',
  env: 'environment',
  environment: 'environment',
  environments: 'environment',
  control: 'control',
  controls: 'control',
  repo: 'repo',
  repos: 'repo',
};

function environmentView(context: AppContext, org: Org, environment: Environment) {
  return {
    org: org.name,
    name: environment.name,
    type: environment.type,
    description: environment.description,
    created_by: environment.createdBy,
    created_at: environment.createdAt,
    last_modified_at: environment.lastModifiedAt,
    last_reported_at: environment.lastReportedAt,
    last_changed_at: environment.lastChangedAt,
    state: environment.state,
    // Deprecated: has no effect and always reads false (spec §Versioning 3).
    include_scaling: false,
    require_provenance: environment.requireProvenance,
    tags: environment.tags,
    policies: environment.policies,
    included_environments: environment.included,
    snapshot_count: environment.snapshotCount,
    html_url: htmlUrl.environment(context.publicUrl(), org.name, environment.name),
  };
}

/** Physical environments by name for a logical one: each must exist and must not be logical. */
interface EnvironmentBody {
  name: string;
  type: string;
  description: string;
  include_scaling?: boolean;
  require_provenance?: boolean;
  included_environments?: string[];
  policies?: string[];
}

async function includedIds(context: AppContext, org: Org, names: readonly string[]): Promise<number[]> {
  const ids: number[] = [];
  for (const name of names) {
    const included = await context.store.environments.byName(org.id, name);
    if (included === undefined) throw environmentNotFound(org.name, name);
    if (included.type === 'logical') {
      throw invalid({
        included_environments: withInput('A logical environment can only include physical environments', name),
      });
    }
    ids.push(included.id);
  }
  return ids;
}

async function policyIds(context: AppContext, org: Org, names: readonly string[]): Promise<number[]> {
  const found = await context.store.policies.currentByNames(org.id, names);
  if (found.length !== new Set(names).size) throw notFound('Policy not found');
  return found.map((policy) => policy.id);
}

export const environmentRoutes: FastifyPluginCallback<RouteOptions> = (app, { context }, done) => {
  const { store } = context;

  app.put<{ Params: { org: string }; Body: EnvironmentBody }>(
    '/environments/:org',
    { schema: { body: bodySchema('environment-create') } },
    async (request, reply) => {
      const org = orgOf(request);
      const body = request.body;
      const included = body.included_environments;
      const policies = body.policies;
      if (body.type !== 'logical' && included !== undefined && included.length > 0) {
        throw invalid({
          included_environments: withInput('Only a logical environment includes other environments', included),
        });
      }
      const user = principalOf(request).name;
      const { created, deliveries } = await store.transaction(async () => {
        const now = nowSeconds();
        const includeIds = included === undefined ? undefined : await includedIds(context, org, included);
        const attachIds = policies === undefined ? undefined : await policyIds(context, org, policies);
        let environment = await store.environments.byName(org.id, body.name);
        const isNew = environment === undefined;
        if (environment === undefined) {
          const id = await store.environments.create(
            {
              orgId: org.id,
              name: body.name,
              type: body.type,
              description: body.description,
              requireProvenance: body.require_provenance === true,
              createdBy: user,
            },
            now,
          );
          environment = (await store.environments.byId(id))!;
        } else {
          if (environment.type !== body.type)
            throw badRequest(
              `Environment '${body.name}' is of type ${environment.type}; its type cannot change to ${body.type}`,
            );
          // An empty description does not overwrite the stored one (reference §2.5).
          const description = body.description === '' ? undefined : body.description;
          const requireProvenance = typeof body.require_provenance === 'boolean' ? body.require_provenance : undefined;
          await store.environments.update(environment.id, { description, requireProvenance }, now);
        }
        if (includeIds !== undefined) await store.environments.setIncluded(environment.id, includeIds, now);
        const deliveries =
          attachIds === undefined
            ? []
            : await changePolicies(context, org, environment, attachIds, 'replace', user, now);
        return { created: isNew, deliveries };
      });
      deliverSoon(context, deliveries);
      return sendJsonString(reply, created ? 201 : 200, 'OK');
    },
  );

  app.get<{
    Params: { org: string };
    Querystring: {
      name?: string;
      type?: string[];
      tag?: string;
      sort?: string;
      sort_direction?: 'asc' | 'desc';
      page?: number;
      per_page?: number;
    };
  }>('/environments/:org', { schema: { querystring: listQuery } }, async (request) => {
    const org = orgOf(request);
    const query = request.query;
    const paged = query.page !== undefined || query.per_page !== undefined;
    const { page, perPage, offset } = pageOf(query);
    const selected = await store.environments.page(
      org.id,
      {
        nameContains: query.name,
        types: query.type,
        tag: query.tag,
        sort: query.sort as EnvironmentQuery['sort'],
        descending: query.sort_direction === 'desc',
      },
      paged ? perPage : -1,
      paged ? offset : 0,
    );
    // An environment that cannot be read or rendered stays in the list as a placeholder, after
    // the rendered ones (the store puts the unreadable rows last).
    const rendered = await renderEach(
      selected.environments,
      (environment) => String(environment.id),
      (environment) => environmentView(context, org, environment),
    );
    const views = [
      ...rendered.filter((view) => !('placeholder' in view)),
      ...rendered.filter((view) => 'placeholder' in view),
    ];
    if (!paged) return views;
    return {
      _links: pageLinks(context.publicUrl(), request.url, paginationOf(selected.total, page, perPage)),
      page,
      per_page: perPage,
      total_pages: Math.ceil(selected.total / perPage),
      total_count: selected.total,
      environments: views,
    };
  });

  app.get<{ Params: { org: string; env: string } }>(
    '/environments/:org/:env',
    { schema: { params: envParams } },
    async (request) => {
      const org = orgOf(request);
      return environmentView(context, org, await environmentOr404(context.store, org, request.params.env));
    },
  );

  app.patch<{ Params: { org: string; env: string }; Body: BodyOf<'environment-update'> }>(
    '/environments/:org/:env',
    { schema: { params: envParams, body: bodySchema('environment-update') } },
    async (request, reply) => {
      const org = orgOf(request);
      const body = request.body;
      const user = principalOf(request).name;
      const deliveries = await store.transaction(async (): Promise<OutboxDelivery[]> => {
        const now = nowSeconds();
        const environment = await environmentOr404(context.store, org, request.params.env);
        if (body.included_environments !== undefined) {
          if (environment.type !== 'logical' && body.included_environments.length > 0) {
            throw invalid({
              included_environments: withInput(
                'Only a logical environment includes other environments',
                body.included_environments,
              ),
            });
          }
          await store.environments.setIncluded(
            environment.id,
            await includedIds(context, org, body.included_environments),
            now,
          );
        }
        await store.environments.update(environment.id, { description: body.description }, now);
        if (body.policies === undefined) return [];
        return await changePolicies(
          context,
          org,
          environment,
          await policyIds(context, org, body.policies),
          'replace',
          user,
          now,
        );
      });
      deliverSoon(context, deliveries);
      return sendJsonString(reply, 200, 'OK');
    },
  );

  app.put<{ Params: { org: string; env: string } }>(
    '/environments/:org/:env/archive',
    { schema: { params: envParams } },
    async (request, reply) => {
      const org = orgOf(request);
      await store.transaction(
        async () =>
          await store.environments.archive(
            (await environmentOr404(context.store, org, request.params.env)).id,
            nowSeconds(),
          ),
      );
      return sendJsonString(reply, 200, 'OK');
    },
  );

  app.put<{ Params: { org: string; env: string }; Body: BodyOf<'environment-rename'> }>(
    '/environments/:org/:env/rename',
    { schema: { params: envParams, body: bodySchema('environment-rename') } },
    async (request, reply) => {
      const org = orgOf(request);
      const newName = request.body.new_name;
      await store.transaction(async () => {
        const environment = await environmentOr404(context.store, org, request.params.env);
        if (newName === environment.name) return;
        if ((await store.environments.byName(org.id, newName)) !== undefined) {
          throw badRequest(`Environment named '${newName}' already exists for organization '${org.name}'`);
        }
        const now = nowSeconds();
        await store.environments.rename(environment.id, newName, now);
        await store.actions.renameWatched(org.id, 'environment', environment.name, newName, now);
      });
      return sendJsonString(reply, 200, 'OK');
    },
  );

  app.put<{ Params: { org: string; env: string }; Body: BodyOf<'environment-join'> }>(
    '/environments/:org/:env/join',
    { schema: { params: envParams, body: bodySchema('environment-join') } },
    async (request, reply) => {
      const org = orgOf(request);
      const physical = request.body.physical_env_name;
      const deliveries = await store.transaction(async () => {
        const logical = await environmentOr404(context.store, org, request.params.env);
        if (logical.type !== 'logical')
          throw badRequest(
            `Environment '${logical.name}' is not logical: only a logical environment can include others`,
          );
        const [physicalId] = await includedIds(context, org, [physical]);
        const current: number[] = [];
        for (const name of logical.included) current.push((await store.environments.byName(org.id, name))!.id);
        if (current.includes(physicalId)) return [];
        const now = nowSeconds();
        await store.environments.setIncluded(logical.id, [...current, physicalId], now);
        // What the joined environment runs now belongs to the logical one's snapshot from now on.
        return await recordCombinedSnapshot(context, org, (await store.environments.byId(logical.id))!, now);
      });
      deliverSoon(context, deliveries);
      return sendJsonString(reply, 200, 'OK');
    },
  );

  for (const [method, mode] of [
    ['POST', 'attach'],
    ['DELETE', 'detach'],
  ] as const) {
    app.route<{ Params: { org: string; env: string }; Body: BodyOf<'environment-policies'> }>({
      method,
      url: '/environments/:org/:env/policies',
      schema: { params: envParams, body: bodySchema('environment-policies') },
      handler: async (request, reply) => {
        const org = orgOf(request);
        const names = request.body.policy_names;
        const user = principalOf(request).name;
        const deliveries = await store.transaction(async () => {
          const environment = await environmentOr404(context.store, org, request.params.env);
          return await changePolicies(
            context,
            org,
            environment,
            await policyIds(context, org, names),
            mode,
            user,
            nowSeconds(),
          );
        });
        deliverSoon(context, deliveries);
        return sendJsonString(reply, 200, 'OK');
      },
    });
  }

  app.put<{ Params: { org: string; env: string }; Body: BodyOf<'allowlist-create'> }>(
    '/allowlists/:org/:env',
    { schema: { params: envParams, body: bodySchema('allowlist-create') } },
    async (request, reply) => {
      const org = orgOf(request);
      const body = request.body;
      const deliveries = await store.transaction(async () => {
        const environment = await environmentOr404(context.store, org, request.params.env);
        const entry = {
          artifactFingerprint: body.artifact_fingerprint,
          artifactName: body.artifact_name ?? '',
          description: body.description,
          createdBy: principalOf(request).name,
        };
        return await allowArtifact(context, org, environment, entry, nowSeconds());
      });
      deliverSoon(context, deliveries);
      return sendJsonString(reply, 200, 'OK');
    },
  );

  app.get<{ Params: { org: string } }>('/allowlists/:org', async (request) =>
    (await store.environments.allowlist(orgOf(request).id)).map((entry) => ({
      environment_name: entry.environmentName,
      artifact_fingerprint: entry.artifactFingerprint,
      artifact_name: entry.artifactName,
      description: entry.description,
      created_by: entry.createdBy,
      created_at: entry.createdAt,
    })),
  );

  app.patch<{ Params: { org: string; resource_type: string; id: string }; Body: BodyOf<'tags-update'> }>(
    '/tags/:org/:resource_type/:id',
    { schema: { body: bodySchema('tags-update') } },
    async (request, reply) => {
      const org = orgOf(request);
      const kind = TAG_RESOURCES[request.params.resource_type];
      if (kind === undefined) {
        throw invalid({
          resource_type: withInput(
            `Input should be ${Object.keys(TAG_RESOURCES)
              .map((k) => `'${k}'`)
              .join(', ')}`,
            request.params.resource_type,
          ),
        });
      }
      const body = request.body;
      const set = Object.entries(body.set_tags ?? {});
      const remove = body.remove_tags ?? [];
      const retag = (tags: Record<string, string>): Record<string, string> => {
        const next = { ...tags };
        for (const [key, value] of set) next[key] = value;
        for (const key of remove) delete next[key];
        return next;
      };
      await store.transaction(async () => {
        const now = nowSeconds();
        const id = request.params.id;
        if (kind === 'environment') {
          const environment = await environmentOr404(context.store, org, id);
          await store.environments.setTags(environment.id, retag(environment.tags), now);
        } else if (kind === 'control') {
          if (!org.features.controls) throw forbidden();
          const control = await store.controls.byIdentifier(org.id, id);
          if (control === undefined) throw notFound(`Control '${id}' does not exist in organization '${org.name}'`);
          await store.controls.setTags(control.id, retag(control.tags), now);
        } else if (kind === 'flow') {
          const flow = await store.flows.byName(org.id, id);
          if (flow === undefined) throw notFound(`Flow named '${id}' does not exist for organization '${org.name}'`);
          await store.flows.setTags(flow.id, retag(flow.tags), now);
        } else {
          if (!(await store.repos.all(org.id)).some((repo) => repo.id === id)) throw notFound(`Repo '${id}' not found`);
          await store.repos.setTags(org.id, id, retag(await store.repos.tags(org.id, id)), now);
        }
      });
      return sendJsonString(reply, 200, 'OK');
    },
  );
  done();
};
