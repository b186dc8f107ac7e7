// One shape for what every environment type reports as running: report items grouped by
// fingerprint (reference §5.3). The report bodies have already been validated; this only reshapes.

import type { ReportType } from '../../../shared/reports/check.ts';

export interface PodInstance {
  namespace: string;
  creationTimestamp: number;
  owners: unknown[];
}

/** One artifact of a report: every report item that runs this fingerprint, merged. */
export interface RunningArtifact {
  fingerprint: string;
  /** The `digests` key under which the fingerprint was first reported (image reference, file, function…). */
  name: string;
  /** One entry per report item (pod, task, app…) that runs the artifact. */
  creationTimestamps: number[];
  /** K8S only: pod name → where and since when it runs. */
  pods: Record<string, PodInstance> | null;
  /** ECS only: the tasks that run the artifact. */
  ecsContext: Record<string, unknown>[] | null;
  /** azure-apps and cloud-run: the app, service, revision or job of each instance. */
  instanceContext: Record<string, unknown>[] | null;
}

type Item = Record<string, unknown>;

// The fields of an item that say where an instance runs, per type; everything else is identity.
const CONTEXT_FIELDS: Partial<Record<ReportType, readonly string[]>> = {
  ECS: ['taskArn', 'cluster_name', 'service_name'],
  'azure-apps': ['app_name', 'app_kind', 'digests_source'],
  'cloud-run': ['kind', 'serviceName', 'revisionName', 'jobName'],
};

/**
 * The artifacts a report says are running, grouped by fingerprint in order of first appearance.
 * A digest of `""` (an ECS task whose image digest is unknown) has no fingerprint to match; such
 * entries are grouped by name under an empty fingerprint so that they are still shown.
 */
export function runningArtifactsOf(type: ReportType, body: unknown): RunningArtifact[] {
  const items = reportItems(body);
  const byKey = new Map<string, RunningArtifact>();
  const contextFields = CONTEXT_FIELDS[type];
  for (const item of items) {
    const digests = item.digests;
    if (digests === null || typeof digests !== 'object') continue;
    const creationTimestamp = typeof item.creationTimestamp === 'number' ? item.creationTimestamp : 0;
    for (const [name, digest] of Object.entries(digests as Record<string, unknown>)) {
      const fingerprint = typeof digest === 'string' ? digest.toLowerCase() : '';
      const key = fingerprint === '' ? `\0${name}` : fingerprint;
      let artifact = byKey.get(key);
      if (artifact === undefined) {
        artifact = {
          fingerprint,
          name,
          creationTimestamps: [],
          pods: type === 'K8S' ? podsMap() : null,
          ecsContext: type === 'ECS' ? [] : null,
          instanceContext: type === 'azure-apps' || type === 'cloud-run' ? [] : null,
        };
        byKey.set(key, artifact);
      }
      artifact.creationTimestamps.push(creationTimestamp);
      if (artifact.pods !== null && typeof item.podName === 'string') {
        artifact.pods[item.podName] = {
          namespace: typeof item.namespace === 'string' ? item.namespace : '',
          creationTimestamp,
          owners: Array.isArray(item.owners) ? item.owners : [],
        };
      }
      if (contextFields !== undefined) {
        const context = pick(item, contextFields);
        (artifact.ecsContext ?? artifact.instanceContext)!.push(context);
      }
    }
  }
  return [...byKey.values()];
}

function reportItems(body: unknown): Item[] {
  if (body === null || typeof body !== 'object') return [];
  const artifacts = (body as Item).artifacts;
  return Array.isArray(artifacts)
    ? artifacts.filter((item): item is Item => item !== null && typeof item === 'object')
    : [];
}

function pick(item: Item, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) if (item[field] !== undefined) out[field] = item[field];
  return out;
}

// Keyed by pod name: thousands of distinct keys. A prototype-less object is a plain dictionary
// for V8, instead of one hidden class per key added.
function podsMap(): Record<string, PodInstance> {
  return Object.create(null) as Record<string, PodInstance>;
}
