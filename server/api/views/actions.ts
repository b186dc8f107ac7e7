// Actions (notifications; reference §2.12) as the API answers them.
import type { Action } from '../../../shared/contract/types.ts';
import type { Action as ActionRow } from '../store/actions.ts';

/** No delivery state: how an action shows to a role that does not see deliveries. */
const UNSEEN_DELIVERIES = { isFailing: false, lastSuccessTimestamp: null, lastFailureTimestamp: null } as const;

/** The action; without `deliveriesShown`, as if no delivery had been tried. */
export function actionView(shown: ActionRow, deliveriesShown: boolean): Action {
  const action = deliveriesShown ? shown : { ...shown, ...UNSEEN_DELIVERIES };
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
