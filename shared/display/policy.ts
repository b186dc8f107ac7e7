// An environment policy as display data: what it says (the YAML of each version), where it is
// attached, and what happened to it, in words. Input is the API's Policy object (`GET
// /policies/{org}/{name}`) or its list.

import { isRecord, listOf, numberOf, textOf, timeOf, type ViewRef } from './links.ts';

export interface PolicyVersionDisplay {
  version: number;
  yaml: string;
  createdAt: string | null;
  createdBy: string;
  comment: string;
}

export interface PolicyEventDisplay {
  time: string | null;
  /** What happened, in words: "Attached to production". */
  event: string;
  user: string;
  /** The environment it was attached to or detached from, when it was. */
  environment: ViewRef | null;
}

export interface PolicyDisplay {
  name: string;
  description: string;
  archived: boolean;
  /** The environments it is attached to, by name. */
  attachedTo: { name: string; ref: ViewRef }[];
  createdAt: string | null;
  lastModifiedAt: string | null;
  /** Newest first. */
  versions: PolicyVersionDisplay[];
  /** Newest first. */
  events: PolicyEventDisplay[];
  ref: ViewRef;
}

const EVENTS: Readonly<Record<string, (version: string, environment: string) => string>> = {
  policy_created: (version) => `Created (version ${version})`,
  policy_version_created: (version) => `Version ${version} written`,
  policy_archived: () => 'Archived',
  policy_unarchived: () => 'Brought back from the archive',
  policy_attached: (version, environment) => `Attached to ${environment} (version ${version})`,
  policy_detached: (_version, environment) => `Detached from ${environment}`,
};

function eventDisplay(entry: Record<string, unknown>): PolicyEventDisplay {
  const type = textOf(entry.type);
  const data = isRecord(entry.data) ? entry.data : {};
  const environment = textOf(data.environment);
  const words = Object.hasOwn(EVENTS, type) ? EVENTS[type](textOf(data.version), environment) : type.replace(/_/g, ' ');
  return {
    time: timeOf(entry.timestamp),
    event: words,
    user: textOf(entry.user),
    environment: environment === '' ? null : { kind: 'environment', environment },
  };
}

export function policyDisplay(policy: Record<string, unknown>): PolicyDisplay {
  const name = textOf(policy.name);
  const versions = listOf(policy.versions)
    .map((version) => ({
      version: numberOf(version.version),
      yaml: textOf(version.policy_yaml),
      createdAt: timeOf(version.timestamp),
      createdBy: textOf(version.created_by),
      comment: textOf(version.comment),
    }))
    .sort((a, b) => b.version - a.version);
  return {
    name,
    description: textOf(policy.description),
    archived: policy.archived === true,
    attachedTo: (Array.isArray(policy.consuming_envs) ? policy.consuming_envs.map(textOf) : []).map((environment) => ({
      name: environment,
      ref: { kind: 'environment', environment },
    })),
    createdAt: timeOf(policy.created_at),
    lastModifiedAt: timeOf(policy.last_modified_at),
    versions,
    events: listOf(policy.events).map(eventDisplay).reverse(),
    ref: { kind: 'policy', policy: name },
  };
}

/** `GET /policies/{org}`: each policy, live ones first, by name. */
export function policyListDisplay(list: unknown): PolicyDisplay[] {
  return listOf(list)
    .filter((entry) => entry.placeholder !== true)
    .map(policyDisplay)
    .sort((a, b) => Number(a.archived) - Number(b.archived) || a.name.localeCompare(b.name));
}
