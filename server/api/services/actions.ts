// Actions (notifications; reference §2.12, spec endpoint 9): what to watch (environments or
// flows), on which triggers, and where to send (webhooks are sent; other targets are kept and
// shown). Each action is answered as the caller's role may see it.
import type { Action as ActionView } from '../../../shared/contract/types.ts';
import type { BodyOf } from '../../../shared/schemas/index.ts';
import { nowSeconds } from '../clock.ts';
import { ENVIRONMENT_TRIGGERS, FLOW_TRIGGERS } from '../delivery/notifications.ts';
import { invalid, withInput } from '../errors.ts';
import { actionNotFound } from '../notFound.ts';
import type { Principal, Role } from '../principal.ts';
import { mayUse, OPERATIONS } from '../rules/roles.ts';
import { forbiddenHostKind, refusedTargetMessage } from '../rules/webhookTargets.ts';
import { actionView } from '../views/actions.ts';
import { renderEach, type Placeholder } from '../views/placeholders.ts';
import type { ActionInput } from '../store/actions.ts';
import type { Org } from '../store/orgs.ts';
import type { ServiceDeps } from './index.ts';
import { actionOr404, environmentOr404, flowOr404 } from './lookups.ts';

/** The general form's body; the environment and flow forms take a subset of its fields. */
export type ActionBody = BodyOf<'action-create'>;

/**
 * Whether `role` sees how an action's deliveries went: a role that may change actions (and so aim
 * them anywhere) does. To the others (reader, snapshotter) an action shows no delivery state:
 * whether a target answered would tell them whether something listens at an address.
 */
function seesDeliveries(role: Role): boolean {
  return mayUse(role, OPERATIONS['PUT /actions/{org}'].needs);
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

export function actionService({ store, allowPrivateWebhooks }: Pick<ServiceDeps, 'store' | 'allowPrivateWebhooks'>) {
  /** The action as stored: triggers valid for its kind, webhook URLs usable, watched resources existing. */
  const inputOf = async (org: Org, body: ActionBody, kind: 'environment' | 'flow'): Promise<ActionInput> => {
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
          : webhookUrlError(entry.webhook, allowPrivateWebhooks);
      if (error === undefined) return;
      errors[`targets[${index}].webhook`] = withInput(error.message, entry.webhook);
      if (error.refusal) refusals.push(error.message);
    });
    // A refused target is named in the message too: the flag it takes is the operator's, not the caller's.
    if (Object.keys(errors).length > 0) throw invalid(errors, refusals[0]);
    const environments = kind === 'environment' ? (body.environments ?? []) : [];
    const flows = kind === 'flow' ? (body.flows ?? []) : [];
    for (const name of environments) await environmentOr404(store, org, name);
    for (const name of flows) await flowOr404(store, org, name);
    return {
      name: body.name,
      type: kind,
      targets: body.targets,
      triggers: [...new Set(body.triggers)],
      environments,
      flows,
    };
  };

  return {
    /**
     * Creates the action, or updates the one of that name, of `kind` (the generic form: from the
     * body); answered as the caller sees it, and whether it was created.
     */
    async save(
      org: Org,
      body: ActionBody,
      kind: 'environment' | 'flow' | undefined,
      caller: Principal,
    ): Promise<{ action: ActionView; created: boolean }> {
      const input = await inputOf(org, body, kind ?? kindOf(body));
      const { action, created } = await store.transaction(async () => {
        const now = nowSeconds();
        const existing = await store.actions.byName(org.id, input.name);
        if (existing !== undefined) {
          await store.actions.update(existing.id, input, now);
          return { action: (await store.actions.byNumber(org.id, existing.number))!, created: false };
        }
        const number = await store.actions.create(org.id, input, caller.name, now);
        return { action: (await store.actions.byNumber(org.id, number))!, created: true };
      });
      return { action: actionView(action, seesDeliveries(caller.role)), created };
    },

    /** The org's live actions as `role` sees them; a row that cannot be read stands as a placeholder. */
    async actionsOf(org: Org, role: Role): Promise<Array<ActionView | Placeholder>> {
      return await renderEach(
        await store.actions.list(org.id),
        (action) => String(action.number),
        (action) => actionView(action, seesDeliveries(role)),
      );
    },

    async numbered(org: Org, number: number, role: Role): Promise<ActionView> {
      return actionView(await actionOr404(store, org, number), seesDeliveries(role));
    },

    /**
     * Replaces the environment action numbered `number` with the body, its number kept (the legacy
     * `PUT /organizations/{org}/environments_notifications/{n}`, reference §8.4): a flow action or
     * none is 404, a name another action has is refused.
     */
    async replace(org: Org, number: number, body: ActionBody, caller: Principal): Promise<ActionView> {
      const input = await inputOf(org, body, 'environment');
      const action = await store.transaction(async () => {
        const existing = await actionOr404(store, org, number);
        if (existing.type !== 'environment') throw actionNotFound(org.name, number);
        const named = await store.actions.byName(org.id, input.name);
        if (named !== undefined && named.number !== number)
          throw invalid({ name: withInput(`Action ${named.number} has this name already`, input.name) });
        await store.actions.update(existing.id, input, nowSeconds());
        return (await store.actions.byNumber(org.id, number))!;
      });
      return actionView(action, seesDeliveries(caller.role));
    },

    async remove(org: Org, number: number): Promise<void> {
      await store.transaction(
        async () => await store.actions.remove((await actionOr404(store, org, number)).id, nowSeconds()),
      );
    },
  };
}
