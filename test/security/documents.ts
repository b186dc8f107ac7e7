// Hostile documents of the attack suite: templates and policies that are too large, too many,
// too deep, too aliased or too wrong, each built to the size of the reproduction it stands for.
import { fingerprint } from '../api/fixtures.ts';

export const POLICY_HEAD = '_schema: https://compliance-evidence.dev/schemas/policy/environment/v1\nartifacts:\n';

/** A template whose trail has `count` attestation slots. */
export function slotsTemplate(count: number): string {
  const lines = ['version: 1', 'trail:', '  attestations:'];
  for (let i = 0; i < count; i++) lines.push(`    - {name: slot-${i}, type: generic}`);
  return `${lines.join('\n')}\n`;
}

/** A template of `artifacts` artifacts with `slots` attestations each. */
export function artifactsTemplate(artifacts: number, slots: number): string {
  const lines = ['version: 1', 'trail:', '  artifacts:'];
  for (let a = 0; a < artifacts; a++) {
    lines.push(`    - name: artifact-${a}`, '      attestations:');
    for (let s = 0; s < slots; s++) lines.push(`        - {name: check-${s}, type: generic}`);
  }
  return `${lines.join('\n')}\n`;
}

/** A template whose `count` slots each break the name pattern and name an unknown type. */
export function badEntriesTemplate(count: number): string {
  const lines = ['version: 1', 'trail:', '  attestations:'];
  for (let i = 0; i < count; i++) lines.push(`    - {name: "bad name ${i}", type: nope}`);
  return `${lines.join('\n')}\n`;
}

/** A template with `count` anchored slots and an alias of each as an artifact's slot. */
export function anchorsTemplate(count: number): string {
  const lines = ['version: 1', 'trail:', '  attestations:'];
  for (let i = 0; i < count; i++) lines.push(`    - &a${i} {name: slot-${i}, type: generic}`);
  lines.push('  artifacts:', '    - name: app', '      attestations:');
  for (let i = 0; i < count; i++) lines.push(`        - *a${i}`);
  return `${lines.join('\n')}\n`;
}

/** A template whose trail holds lists nested `depth` levels deep. */
export function deepTemplate(depth: number): string {
  return `version: 1\ntrail: ${'['.repeat(depth)}${']'.repeat(depth)}\n`;
}

/** A policy of `count` attestation rules, each with a condition. */
export function rulesPolicy(count: number): string {
  const lines = [`${POLICY_HEAD}  provenance:\n    required: true\n  attestations:`];
  for (let i = 0; i < count; i++)
    lines.push(`    - name: check-${i}`, '      type: generic', `      if: \${{ flow.name == "flow-${i}" }}`);
  return `${lines.join('\n')}\n`;
}

/** A policy whose rule list is nested `depth` levels deep. */
export function deepPolicy(depth: number): string {
  return `${POLICY_HEAD}  attestations: ${'['.repeat(depth)}${']'.repeat(depth)}\n`;
}

/** A K8S report of `pods` pods, pretty-printed as people keep them; the pod at `wrong` has a number for its name (one finding). */
export function k8sReportText(pods: number, wrong: number): string {
  const artifacts = Array.from({ length: pods }, (_, i) => ({
    podName: i === wrong ? i : `pod-${i}`,
    namespace: 'prod',
    creationTimestamp: 1700000000,
    digests: { [`registry.example/app-${i}:1`]: fingerprint(`app-${i}`) },
    owners: [],
  }));
  return JSON.stringify({ artifacts }, null, 2);
}
