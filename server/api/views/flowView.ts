// The flow object (reference §2.1); list items add latest_activity_at and latest_state (spec).
import type { Store } from '../store/index.ts';
import type { Flow } from '../store/flows.ts';
import { evaluationOf } from '../rules/compliance.ts';
import { htmlUrl } from './urls.ts';

export async function flowView(store: Store, host: string, orgName: string, flow: Flow): Promise<Record<string, unknown>> {
  const latest = await store.trails.latestActive(flow.id);
  return {
    id: flow.id,
    name: flow.name,
    description: flow.description,
    visibility: flow.visibility,
    org: orgName,
    template: flow.template.content,
    repo_url: flow.repoUrl,
    tags: flow.tags,
    created_at: flow.createdAt,
    last_modified_at: flow.lastModifiedAt,
    created_by: flow.createdBy,
    html_url: htmlUrl.flow(host, orgName, flow.name),
    latest_activity_at: latest?.lastModifiedAt ?? null,
    latest_state: latest === undefined ? null : (await evaluationOf(store, latest)).compliance_state,
  };
}
