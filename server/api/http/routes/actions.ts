// Actions (notifications; reference §2.12, spec endpoint 9): what to watch (environments or
// flows), on which triggers, and where to send (webhooks are sent; other targets are kept and shown).
import type { FastifyPluginCallback } from 'fastify';
import { orgOf, principalOf } from '../auth.ts';
import { bodySchema } from '../requestBodies.ts';
import type { BodyOf } from '../../../../shared/schemas/index.ts';
import type { AppContext, RouteOptions } from '../context.ts';
import { invalid, notFound, withInput } from '../../errors.ts';
import { nowSeconds } from '../../clock.ts';
import { environmentNotFound } from '../../services/lookups.ts';
import { ENVIRONMENT_TRIGGERS, FLOW_TRIGGERS } from '../../delivery/notifications.ts';
import { sendJsonString } from '../replies.ts';
import { renderEach } from '../../views/placeholders.ts';
import { mayUse, OPERATIONS } from '../../rules/roles.ts';
import { forbiddenHostKind, refusedTargetMessage } from '../../rules/webhookTargets.ts';
import type { Action, ActionInput } from '../../store/actions.ts';
import type { Org } from '../../store/orgs.ts';
import type { Role } from '../../principal.ts';

/** The general form's body; the environment and flow forms take a subset of its fields. */
type ActionBody = BodyOf<'action-create'>;

/**
 * Whether `role` sees how an action's deliveries went: a role that may change actions (and so aim
 * them anywhere) does. To the others (reader, snapshotter) an action shows no delivery state:
 * whether a target answered would tell them whether something listens at an address.
 */
function seesDeliveries(role: Role): boolean {
  return mayUse(role, OPERATIONS['PUT /actions/{org}'].needs);
}

/** No delivery state: how an action shows to a role that does not see deliveries. */
const UNSEEN_DELIVERIES = { isFailing: false, lastSuccessTimestamp: null, lastFailureTimestamp: null } as const;

function actionView(shown: Action, role: Role) {
  const action = seesDeliveries(role) ? shown : { ...shown, ...UNSEEN_DELIVERIES };
  return {
    name: action.name,
    type: action.type,
    number: action.number,
    targets: action.targets,
    triggers: action.triggers,
    created_by: action.createdBy,
    is_created_from_slack_app: false,
    last_modified_at: action.lastModifiedAt,
    is_failing: action.isFailing,
    last_success_timestamp: action.lastSuccessTimestamp,
    last_failure_timestamp: action.lastFailureTimestamp,
    created_at: action.createdAt,
    flows: action.flows,
    environments: action.environments,
  };
}

/** On the generic route the kind is `type`, or follows from what the action watches. */
function kindOf(body: ActionBody): 'environment' | 'flow' {
  if (body.type === 'environment' || body.type === 'flow') return body.type;
  if (body.type !== undefined) throw invalid({ type: withInput("Input should be 'environment' or 'flow'", body.type) });
  return body.flows !== undefined && body.flows.length > 0 ? 'flow' : 'environment';
}

/** Why a webhook URL cannot be stored: not an http(s) URL, or a host it may not reach (a refusal). */
function webhookUrlError(value: unknown, allowPrivate: boolean): { message: string; refusal?: true } | undefined {
  const url = typeof value === 'string' ? URL.parse(value) : null;
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    return { message: 'Input should be a valid URL, relative URL without a base' };
  const kind = allowPrivate ? undefined : forbiddenHostKind(url.hostname);
  return kind === undefined ? undefined : { message: refusedTargetMessage(url.hostname, kind), refusal: true };
}

/** The action as stored: triggers valid for its kind, webhook URLs usable, watched resources existing. */
async function inputOf(
  context: AppContext,
  org: Org,
  body: ActionBody,
  kind: 'environment' | 'flow',
): Promise<ActionInput> {
  const errors: Record<string, string> = {};
  const refusals: string[] = [];
  const allowed: readonly string[] = kind === 'environment' ? ENVIRONMENT_TRIGGERS : FLOW_TRIGGERS;
  body.triggers.forEach((trigger, index) => {
    if (!allowed.includes(trigger))
      errors[`triggers[${index}]`] = withInput(`Input should be ${allowed.map((t) => `'${t}'`).join(', ')}`, trigger);
  });
  body.targets.forEach((entry, index) => {
    if (entry.type !== 'WEBHOOK') return;
    const error =
      entry.webhook === undefined
        ? { message: 'Field required' }
        : webhookUrlError(entry.webhook, context.allowPrivateWebhooks);
    if (error === undefined) return;
    errors[`targets[${index}].webhook`] = withInput(error.message, entry.webhook);
    if (error.refusal) refusals.push(error.message);
  });
  // A refused target is named in the message too: the flag it takes is the operator's, not the caller's.
  if (Object.keys(errors).length > 0) throw invalid(errors, refusals[0]);
  const environments = kind === 'environment' ? (body.environments ?? []) : [];
  const flows = kind === 'flow' ? (body.flows ?? []) : [];
  for (const name of environments)
    if ((await context.store.environments.byName(org.id, name)) === undefined)
      throw environmentNotFound(org.name, name);
  for (const name of flows) {
    if ((await context.store.flows.byName(org.id, name)) === undefined)
      throw notFound(`Flow named '${name}' does not exist for organization '${org.name}'`);
  }
  return {
    name: body.name,
    type: kind,
    targets: body.targets,
    triggers: [...new Set(body.triggers)],
    environments,
    flows,
  };
}

export const actionRoutes: FastifyPluginCallback<RouteOptions> = (app, { context }, done) => {
  const { store } = context;

  const routes = [
    ['/actions/:org', 'action-create', undefined],
    ['/actions/:org/environments', 'environment-action-create', 'environment'],
    ['/actions/:org/flows', 'flow-action-create', 'flow'],
  ] as const;
  for (const [url, schema, fixedKind] of routes) {
    app.put<{ Params: { org: string }; Body: ActionBody }>(
      url,
      { schema: { body: bodySchema(schema) } },
      async (request, reply) => {
        const org = orgOf(request);
        const body = request.body;
        const kind = fixedKind ?? kindOf(body);
        const input = await inputOf(context, org, body, kind);
        const { action, created } = await store.transaction(async () => {
          const now = nowSeconds();
          const existing = await store.actions.byName(org.id, input.name);
          if (existing !== undefined) {
            await store.actions.update(existing.id, input, now);
            return { action: (await store.actions.byNumber(org.id, existing.number))!, created: false };
          }
          const number = await store.actions.create(org.id, input, principalOf(request).name, now);
          return { action: (await store.actions.byNumber(org.id, number))!, created: true };
        });
        return reply.code(created ? 201 : 200).send(actionView(action, principalOf(request).role));
      },
    );
  }

  app.get<{ Params: { org: string } }>('/actions/:org', async (request) => {
    const { role } = principalOf(request);
    return await renderEach(
      await store.actions.list(orgOf(request).id),
      (action) => String(action.number),
      (action) => actionView(action, role),
    );
  });

  const numberParams = {
    type: 'object',
    required: ['org', 'number'],
    properties: { org: { type: 'string' }, number: { type: 'integer', minimum: 1 } },
  } as const;

  const actionOr404 = async (org: Org, number: number): Promise<Action> => {
    const action = await store.actions.byNumber(org.id, number);
    if (action === undefined) throw notFound(`Action ${number} does not exist in organization '${org.name}'`);
    return action;
  };

  app.get<{ Params: { org: string; number: number } }>(
    '/actions/:org/:number',
    { schema: { params: numberParams } },
    async (request) => actionView(await actionOr404(orgOf(request), request.params.number), principalOf(request).role),
  );

  app.delete<{ Params: { org: string; number: number } }>(
    '/actions/:org/:number',
    { schema: { params: numberParams } },
    async (request, reply) => {
      const org = orgOf(request);
      await store.transaction(
        async () => await store.actions.remove((await actionOr404(org, request.params.number)).id, nowSeconds()),
      );
      return sendJsonString(reply, 200, 'OK');
    },
  );
  done();
};
