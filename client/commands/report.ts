// A K8S report body from what the user gave: a report as it is, or kubectl's pods list converted.

/** Throws with a message that says what was expected. */
export function reportOf(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    if ('artifacts' in value) return value;
    if ('items' in value) throw new Error('Converting kubectl pods JSON is not available yet.');
  }
  throw new Error('Expected a K8S report ({"artifacts": [...]}) or the output of kubectl get pods -A -o json.');
}
