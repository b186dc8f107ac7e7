// A K8S report body from what the user gave: a report as it is, or kubectl's pods list converted
// by the shared core (the same conversion everywhere).
import { k8sReportFromPods, type SkippedContainer } from '../../shared/reports/kubectl.ts';

export interface ReportSource {
  report: unknown;
  /** Containers kubectl listed without a digest, which a report cannot identify. */
  skipped: SkippedContainer[];
}

/** Throws with a message that says what was expected. */
export function reportOf(value: unknown): ReportSource {
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && 'artifacts' in value)
    return { report: value, skipped: [] };
  const converted = k8sReportFromPods(value);
  if ('error' in converted)
    throw new Error(
      `Expected a K8S report ({"artifacts": [...]}) or the output of kubectl get pods -A -o json. ${converted.error}`,
    );
  return converted;
}
