// A control as display data: what it is, which policies ask for it and how the environments that
// attach them stand, and the decisions taken on it, newest first. Input is the API's Control object
// (`GET /controls/{org}/{identifier}`), a page of its decisions (`.../decisions`) and its coverage
// (`.../coverage`), or the control list.

import { attestationVerdict, type Verdict } from '../compliance/vocabulary.ts';
import { externalUrlsOf, isRecord, listOf, numberOf, pagingOf, textOf, timeOf } from './links.ts';
import type { PagingDisplay, ViewRef, ViewUrl } from './links.ts';

export interface DecisionDisplay {
  time: string | null;
  verdict: Verdict;
  name: string;
  /** The decision's own attestation, in its trail. */
  ref: ViewRef | null;
  flow: string;
  trail: string;
  trailRef: ViewRef;
  description: string;
  artifact: { name: string; ref: ViewRef } | null;
}

export interface CoverageDisplay {
  environment: string;
  ref: ViewRef;
  policies: string[];
  running: number;
  covered: number;
  notCovered: number;
}

export interface ControlDisplay {
  identifier: string;
  name: string;
  description: string;
  version: number;
  archived: boolean;
  createdAt: string | null;
  links: ViewUrl[];
  tags: { name: string; value: string }[];
  /** The live policies whose rules ask for a decision on it. */
  policies: { name: string; ref: ViewRef }[];
  coverage: CoverageDisplay[];
  decisions: DecisionDisplay[];
  paging: PagingDisplay;
  ref: ViewRef;
}

function decisionDisplay(entry: Record<string, unknown>): DecisionDisplay {
  const flow = textOf(entry.flow_name);
  const trail = textOf(entry.trail_name);
  const id = textOf(entry.decision_id);
  const fingerprint = textOf(entry.artifact_fingerprint);
  return {
    time: timeOf(entry.timestamp),
    verdict: attestationVerdict(entry.is_compliant),
    name: textOf(entry.attestation_name),
    ref: id === '' ? null : { kind: 'attestation', flow, trail, attestationId: id },
    flow,
    trail,
    trailRef: { kind: 'trail', flow, trail },
    description: textOf(entry.description),
    artifact:
      fingerprint === ''
        ? null
        : {
            name: textOf(entry.artifact_name) || `${fingerprint.slice(0, 12)}…`,
            ref: { kind: 'artifact', flow, fingerprint, trail },
          },
  };
}

export function controlDisplay(
  control: Record<string, unknown>,
  decisions: unknown = {},
  coverage: unknown = {},
): ControlDisplay {
  const identifier = textOf(control.identifier);
  const page = isRecord(decisions) ? decisions : {};
  const pagination = isRecord(page.pagination) ? page.pagination : {};
  const perPage = numberOf(pagination.per_page) || 1;
  const tags = isRecord(control.tags) ? control.tags : {};
  return {
    identifier,
    name: textOf(control.name),
    description: textOf(control.description),
    version: numberOf(control.version),
    archived: control.archived === true,
    createdAt: timeOf(control.created_at),
    links: externalUrlsOf(control.links),
    tags: Object.entries(tags).map(([name, value]) => ({ name, value: textOf(value) })),
    policies: (Array.isArray(control.policies_referencing) ? control.policies_referencing.map(textOf) : []).map(
      (policy) => ({ name: policy, ref: { kind: 'policy', policy } }),
    ),
    coverage: listOf(isRecord(coverage) ? coverage.environments : []).map((entry) => {
      const environment = textOf(entry.environment_name);
      return {
        environment,
        ref: { kind: 'environment', environment },
        policies: Array.isArray(entry.policies) ? entry.policies.map(textOf) : [],
        running: numberOf(entry.running),
        covered: numberOf(entry.covered),
        notCovered: numberOf(entry.not_covered),
      };
    }),
    decisions: listOf(page.data).map(decisionDisplay),
    paging: pagingOf(numberOf(pagination.page) || 1, perPage, numberOf(pagination.total)),
    ref: { kind: 'control', identifier },
  };
}

export interface ControlRowDisplay {
  identifier: string;
  name: string;
  version: number;
  archived: boolean;
  policies: string[];
  ref: ViewRef;
  /** Set when the server could not render this entry (a marked placeholder). */
  problem: string | null;
}

/** `GET /controls/{org}`: a page of controls. */
export function controlListDisplay(list: unknown): { controls: ControlRowDisplay[]; total: number } {
  const page = isRecord(list) ? list : {};
  return {
    controls: listOf(page.controls).map((entry) => {
      const identifier = entry.placeholder === true ? textOf(entry.id) : textOf(entry.identifier);
      return {
        identifier,
        name: textOf(entry.name),
        version: numberOf(entry.version),
        archived: entry.archived === true,
        policies: Array.isArray(entry.policies_referencing) ? entry.policies_referencing.map(textOf) : [],
        ref: { kind: 'control', identifier },
        problem: entry.placeholder === true ? textOf(entry.message) : null,
      };
    }),
    total: numberOf(page.total_count),
  };
}
