// The Trail object of the spec's table and reference §3.4, and the JSON of lists and pages of them.
import type { TrailEvaluation } from '../../../shared/compliance/index.ts';
import type { Trail as TrailAnswer, TrailEventAnswer } from '../../../shared/contract/types.ts';
import type { Flow } from '../store/flows.ts';
import type { Trail, TrailEvent } from '../store/trails.ts';
import type { Pagination } from './paging.ts';
import { commitInfoView, repoInfoView } from './commitInfo.ts';
import { htmlUrl } from './urls.ts';

/** The fields of data_json a trail keeps as they were sent (checked by the trail-create schema). */
type SentFields = {
  [Field in 'origin_url' | 'user_data' | 'repo_ids' | 'external_urls']?: TrailAnswer[Field] | null;
} & { git_commit_info?: unknown; repo_info?: unknown };

/**
 * One event as answered: the ids of where it happened first (the trail's, which every event of it
 * shares), then what the event stored, with the commit and repository it carried (null for an
 * event stored without them).
 */
function eventView(trail: Trail, event: TrailEvent): TrailEventAnswer {
  const { type, timestamp, git_commit_info, repo_info, ...fields } = event;
  return {
    org_id: String(trail.orgId),
    flow_id: trail.flowId,
    trail_id: trail.id,
    timestamp,
    type,
    git_commit_info: commitInfoView(git_commit_info),
    repo_info: repoInfoView(repo_info),
    ...fields,
  };
}

/**
 * The trail as the API answers it, with its `evaluation` (the stored compliance_state of
 * migration 203 would not do: the answer shows every slot's status) and its events.
 */
export function trailView(
  host: string,
  orgName: string,
  flow: Flow,
  trail: Trail,
  evaluation: TrailEvaluation,
  events: readonly TrailEvent[],
): TrailAnswer {
  const body = trail.body as SentFields;
  // Evaluated against the trail's own template, whose id is never null here.
  const templateId = trail.template.id;
  const artifactsStatuses = Object.fromEntries(
    Object.entries(evaluation.compliance_status.artifacts_statuses).map(([name, status]) => [
      name,
      { ...status, flow_template_id: templateId },
    ]),
  );
  return {
    name: trail.name,
    description: trail.description,
    created_at: trail.createdAt,
    last_modified_at: trail.lastModifiedAt,
    created_by: trail.createdBy,
    compliance_status: {
      ...evaluation.compliance_status,
      flow_template_id: templateId,
      artifacts_statuses: artifactsStatuses,
    },
    compliance_state: evaluation.compliance_state,
    is_compliant: evaluation.is_compliant,
    template: { ...trail.template.parsed, content: trail.template.content },
    flow: { name: flow.name, tags: flow.tags },
    html_url: htmlUrl.trail(host, orgName, flow.name, trail.name),
    origin_url: body.origin_url ?? null,
    user_data: body.user_data ?? {},
    repo_ids: body.repo_ids ?? [],
    external_urls: body.external_urls ?? {},
    events: events.map((event) => eventView(trail, event)),
    git_commit_info: commitInfoView(body.git_commit_info),
    repo_info: repoInfoView(body.repo_info),
  };
}

/** A JSON array of already-encoded items. */
export function jsonArray(items: readonly Buffer[]): Buffer {
  const parts: Buffer[] = [OPEN];
  items.forEach((item, index) => {
    if (index > 0) parts.push(COMMA);
    parts.push(item);
  });
  parts.push(CLOSE);
  return Buffer.concat(parts);
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/** `{"data": [...], "pagination": {...}}` around an encoded array. */
export function pageJson(data: Buffer, pagination: Pagination): Buffer {
  return Buffer.concat([DATA_OPEN, data, Buffer.from(`,"pagination":${JSON.stringify(pagination)}}`)]);
}

const DATA_OPEN = Buffer.from('{"data":');
