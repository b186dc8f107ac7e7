// The flow object (reference §2.1); list items add latest_activity_at and latest_state (spec).
import type { Flow as FlowAnswer } from '../../../shared/contract/types.ts';
import type { Flow } from '../store/flows.ts';
import { htmlUrl } from './urls.ts';

/** A flow's latest activity and the compliance state of its latest trail. */
export interface FlowLatest {
  activityAt: number | null;
  state: string | null;
}

/** The flow as the API answers it; `latest` defaults to what was stored on write (migration 203). */
export function flowView(
  host: string,
  orgName: string,
  flow: Flow,
  latest: FlowLatest = { activityAt: flow.latestActivityAt, state: flow.latestState },
): FlowAnswer {
  return {
    id: flow.id,
    name: flow.name,
    description: flow.description,
    // Only 'public' or 'private' is ever written (the flow bodies' schema).
    visibility: flow.visibility as FlowAnswer['visibility'],
    org: orgName,
    template: flow.template.content,
    repo_url: flow.repoUrl,
    tags: flow.tags,
    created_at: flow.createdAt,
    last_modified_at: flow.lastModifiedAt,
    created_by: flow.createdBy,
    html_url: htmlUrl.flow(host, orgName, flow.name),
    latest_activity_at: latest.activityAt,
    latest_state: latest.state,
  };
}
