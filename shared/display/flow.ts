// A flow and the flow list as display data (design §10): a flow with one page of its trails (each
// with its compliance and commit), and the org's flows with their latest state. Input is the API's
// Flow object and the `GET /trails/{org}/{flow}` answer (`{data, pagination}` or a plain array);
// entries the server could not render (marked placeholders) are kept as rows with the reason.

import { trailVerdict, type Verdict } from '../compliance/vocabulary.ts';
import {
  isRecord,
  listOf,
  numberOf,
  pagingOf,
  textOf,
  timeOf,
  urlDisplay,
  type PagingDisplay,
  type ViewRef,
  type ViewUrl,
} from './links.ts';

export interface TrailRowDisplay {
  name: string;
  status: Verdict;
  description: string;
  createdAt: string | null;
  lastModifiedAt: string | null;
  commit: string;
  ref: ViewRef;
  problem: string | null;
}

export interface FlowDisplay {
  name: string;
  description: string;
  visibility: string;
  createdAt: string | null;
  createdBy: string;
  repo: ViewUrl | null;
  tags: { name: string; value: string }[];
  /** Its latest trail's verdict; null before its first trail. */
  latestState: Verdict | null;
  /** The YAML text of the current template. */
  template: string;
  trails: TrailRowDisplay[];
  paging: PagingDisplay;
}

export function flowDisplay(flow: Record<string, unknown>, trails: unknown): FlowDisplay {
  const name = textOf(flow.name);
  const { items, paging } = pageOf(trails);
  return {
    name,
    description: textOf(flow.description),
    visibility: textOf(flow.visibility),
    createdAt: timeOf(flow.created_at),
    createdBy: textOf(flow.created_by),
    repo: urlDisplay('repository', flow.repo_url),
    tags: isRecord(flow.tags)
      ? Object.entries(flow.tags).map(([tag, value]) => ({ name: tag, value: textOf(value) }))
      : [],
    latestState: latestStateOf(flow.latest_state),
    template: textOf(flow.template),
    trails: items.map((trail) => trailRow(name, trail)),
    paging,
  };
}

function trailRow(flow: string, trail: Record<string, unknown>): TrailRowDisplay {
  const name = trail.placeholder === true ? textOf(trail.id) : textOf(trail.name);
  const commit = isRecord(trail.git_commit_info) ? textOf(trail.git_commit_info.sha1) : '';
  return {
    name,
    status: trailVerdict(trail.compliance_state),
    description: textOf(trail.description),
    createdAt: timeOf(trail.created_at),
    lastModifiedAt: timeOf(trail.last_modified_at),
    commit,
    ref: { kind: 'trail', flow, trail: name },
    problem: trail.placeholder === true ? textOf(trail.message) : null,
  };
}

export interface FlowRowDisplay {
  name: string;
  description: string;
  latestState: Verdict | null;
  latestActivityAt: string | null;
  ref: ViewRef;
  problem: string | null;
}

export interface FlowListDisplay {
  flows: FlowRowDisplay[];
  paging: PagingDisplay;
}

/** `GET /flows/{org}` as a plain array or its `{data, pagination}` form. */
export function flowListDisplay(list: unknown): FlowListDisplay {
  const { items, paging } = pageOf(list);
  return {
    flows: items.map((flow) => {
      const name = flow.placeholder === true ? textOf(flow.id) : textOf(flow.name);
      return {
        name,
        description: textOf(flow.description),
        latestState: latestStateOf(flow.latest_state),
        latestActivityAt: timeOf(flow.latest_activity_at),
        ref: { kind: 'flow', flow: name },
        problem: flow.placeholder === true ? textOf(flow.message) : null,
      };
    }),
    paging,
  };
}

function latestStateOf(state: unknown): Verdict | null {
  return state === null || state === undefined || state === '' ? null : trailVerdict(state);
}

/** The items and paging of a `{data, pagination}` list, or of a plain array as one page. */
function pageOf(list: unknown): { items: Record<string, unknown>[]; paging: PagingDisplay } {
  if (isRecord(list)) {
    const items = listOf(list.data);
    const pagination = isRecord(list.pagination) ? list.pagination : {};
    return {
      items,
      paging: pagingOf(
        numberOf(pagination.page) || 1,
        numberOf(pagination.per_page) || Math.max(items.length, 1),
        numberOf(pagination.total),
      ),
    };
  }
  const items = listOf(list);
  return { items, paging: pagingOf(1, Math.max(items.length, 1), items.length) };
}
