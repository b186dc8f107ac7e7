// Turns the output of `kubectl get pods -A -o json` into the body of a K8S environment report
// (spec endpoint 2, reference §5.1): one item per pod, each container's image reference from the
// pod spec mapped to the digest the kubelet actually ran (last 64 hex characters of the status
// imageID). Containers without such a digest (not pulled yet, waiting) cannot be identified and
// are listed as skipped so the caller can say so.
import { objectOrEmpty } from '../text/values.ts';

export interface K8sOwnerReference {
  apiVersion?: string;
  kind?: string;
  name?: string;
  uid?: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface K8sPodItem {
  podName: string;
  namespace: string;
  /** Pod creation time, integer epoch seconds. */
  creationTimestamp: number;
  /** Image reference as in the pod spec → 64-hex digest. */
  digests: Record<string, string>;
  owners: K8sOwnerReference[];
}

export interface K8sReportBody {
  artifacts: K8sPodItem[];
}

export interface SkippedContainer {
  namespace: string;
  podName: string;
  /** The container name, or '' when the whole pod was skipped. */
  container: string;
  reason: string;
}

export type KubectlConversion = { report: K8sReportBody; skipped: SkippedContainer[] } | { error: string };

const DIGEST = /([a-fA-F0-9]{64})$/;
const OWNER_FIELDS = ['apiVersion', 'kind', 'name', 'uid', 'controller', 'blockOwnerDeletion'] as const;

/** Converts kubectl's JSON text; an error (never an exception) when it is not a pod list. */
export function k8sReportFromKubectlOutput(text: string): KubectlConversion {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { error: `kubectl output is not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  return k8sReportFromPods(value);
}

/** Converts a parsed `v1 List` of pods (or a single Pod). */
export function k8sReportFromPods(value: unknown): KubectlConversion {
  const list = objectOrEmpty(value);
  const pods = Array.isArray(list.items) ? list.items : list.kind === 'Pod' ? [value] : undefined;
  if (!pods)
    return { error: 'Expected the output of `kubectl get pods -o json`: an object with an `items` list of pods' };
  const artifacts: K8sPodItem[] = [];
  const skipped: SkippedContainer[] = [];
  for (const pod of pods) {
    const converted = podItem(objectOrEmpty(pod), skipped);
    if (converted) artifacts.push(converted);
  }
  return { report: { artifacts }, skipped };
}

function podItem(pod: Record<string, unknown>, skipped: SkippedContainer[]): K8sPodItem | undefined {
  const metadata = objectOrEmpty(pod.metadata);
  const podName = text(metadata.name);
  const namespace = text(metadata.namespace) || 'default';
  const skip = (container: string, reason: string) => skipped.push({ namespace, podName, container, reason });
  const created = Date.parse(text(metadata.creationTimestamp));
  if (!podName || Number.isNaN(created)) {
    skip('', podName ? 'the pod has no valid creationTimestamp' : 'the pod has no name');
    return undefined;
  }
  const images = new Map<string, string>();
  for (const container of list(objectOrEmpty(pod.spec).containers))
    images.set(text(objectOrEmpty(container).name), text(objectOrEmpty(container).image));
  const statuses = new Map<string, Record<string, unknown>>();
  for (const status of list(objectOrEmpty(pod.status).containerStatuses))
    statuses.set(text(objectOrEmpty(status).name), objectOrEmpty(status));

  const digests: Record<string, string> = {};
  for (const [container, image] of images) {
    const imageId = text(statuses.get(container)?.imageID);
    const digest = DIGEST.exec(imageId)?.[1];
    if (!image) skip(container, 'the container has no image');
    else if (!digest)
      skip(
        container,
        imageId
          ? `its imageID has no digest: ${imageId}`
          : 'it has no imageID yet (image not pulled or container not started)',
      );
    else digests[image] = digest.toLowerCase();
  }
  if (Object.keys(digests).length === 0) return undefined;
  return {
    podName,
    namespace,
    creationTimestamp: Math.floor(created / 1000),
    digests,
    owners: list(metadata.ownerReferences).map(owner),
  };
}

function owner(value: unknown): K8sOwnerReference {
  const source = objectOrEmpty(value);
  const result: Record<string, unknown> = {};
  for (const field of OWNER_FIELDS) if (source[field] !== undefined) result[field] = source[field];
  return result;
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
