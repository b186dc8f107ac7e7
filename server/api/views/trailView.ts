// The Trail object of the spec's table and reference §3.4, and the JSON of lists and pages of them.
import type { TrailEvaluation } from '../../../shared/compliance/index.ts';
import type { Trail as TrailAnswer } from '../../../shared/contract/types.ts';
import type { Flow } from '../store/flows.ts';
import type { Trail, TrailEvent } from '../store/trails.ts';
import type { Pagination } from './paging.ts';
import { htmlUrl } from './urls.ts';

/** The fields of data_json a trail keeps as they were sent (checked by the trail-create schema). */
type SentFields = {
  [Field in 'origin_url' | 'user_data' | 'repo_ids' | 'external_urls' | 'git_commit_info' | 'repo_info']?:
    TrailAnswer[Field] | null;
};

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
  const view: TrailAnswer = {
    name: trail.name,
    description: trail.description,
    created_at: trail.createdAt,
    last_modified_at: trail.lastModifiedAt,
    created_by: trail.createdBy,
    // Evaluated against the trail's own template, whose id is never null here.
    compliance_status: { ...evaluation.compliance_status, flow_template_id: trail.template.id },
    compliance_state: evaluation.compliance_state,
    is_compliant: evaluation.is_compliant,
    template: { ...trail.template.parsed, content: trail.template.content },
    flow: { name: flow.name, tags: flow.tags },
    html_url: htmlUrl.trail(host, orgName, flow.name, trail.name),
    origin_url: body.origin_url ?? null,
    user_data: body.user_data ?? {},
    repo_ids: body.repo_ids ?? [],
    external_urls: body.external_urls ?? {},
    events: [...events],
  };
  if (body.git_commit_info !== undefined && body.git_commit_info !== null) view.git_commit_info = body.git_commit_info;
  if (body.repo_info !== undefined && body.repo_info !== null) view.repo_info = body.repo_info;
  return view;
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
