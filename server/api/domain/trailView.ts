// The Trail object of the spec's table and reference §3.4.
import type { Store } from '../store/index.ts';
import type { Flow } from '../store/flows.ts';
import type { Trail } from '../store/trails.ts';
import { evaluationOf } from './compliance.ts';
import { htmlUrl } from './urls.ts';

export function trailView(store: Store, host: string, orgName: string, flow: Flow, trail: Trail): Record<string, unknown> {
  const evaluation = evaluationOf(store, trail);
  const body = trail.body;
  const view: Record<string, unknown> = {
    name: trail.name,
    description: trail.description,
    created_at: trail.createdAt,
    last_modified_at: trail.lastModifiedAt,
    created_by: trail.createdBy,
    compliance_status: evaluation.compliance_status,
    compliance_state: evaluation.compliance_state,
    is_compliant: evaluation.is_compliant,
    template: { ...trail.template.parsed, content: trail.template.content },
    flow: { name: flow.name, tags: flow.tags },
    html_url: htmlUrl.trail(host, orgName, flow.name, trail.name),
    origin_url: body.origin_url ?? null,
    user_data: body.user_data ?? {},
    repo_ids: body.repo_ids ?? [],
    external_urls: body.external_urls ?? {},
    events: store.trails.events(trail.id),
  };
  if (body.git_commit_info !== undefined && body.git_commit_info !== null) view.git_commit_info = body.git_commit_info;
  if (body.repo_info !== undefined && body.repo_info !== null) view.repo_info = body.repo_info;
  return view;
}
