// Policy dry-run (project extension): the artifacts running in an environment's latest snapshot,
// judged by the shared policy evaluator under an edited policy text alone, with each failing
// rule's place in the document and the reason. Reads only; nothing is stored.
import { evaluatePolicies, ruleFailure, rulePathsOf, type RuleType } from '../../../shared/compliance/index.ts';
import { normalizePolicy } from '../../../shared/policies/model.ts';
import { policyValueOrInvalid } from '../rules/policyText.ts';
import type { Environment } from '../store/environments.ts';
import { policyProvenanceOf } from './policyProvenance.ts';
import type { Store } from '../store/index.ts';
import type { Org } from '../store/orgs.ts';

export interface FailingRule {
  path: Array<string | number>;
  type: RuleType;
  reason: string;
}

export interface PolicyDryRun {
  environment: string;
  snapshot_index: number | null;
  compliant: number;
  non_compliant: number;
  artifacts: Array<{
    name: string;
    fingerprint: string;
    compliant: boolean;
    allowed: boolean;
    recorded_compliant: boolean | null;
    failing_rules: FailingRule[];
  }>;
}

/** The name the dry-run gives the edited policy in its evaluation. */
const DRY_RUN_POLICY = 'dry-run';

/** What `policyText` would say about what runs now in `environment`; a policy with errors answers 400 with them, keyed under `policy`. */
export async function policyDryRunOf(
  store: Store,
  org: Org,
  environment: Environment,
  policyText: string,
  now: number,
): Promise<PolicyDryRun> {
  const model = normalizePolicy(policyValueOrInvalid(policyText, 'policy', (finding) => finding.severity === 'error'));
  const paths = rulePathsOf(model);
  const latest = await store.snapshots.latest(environment.id);
  if (latest === undefined)
    return { environment: environment.name, snapshot_index: null, compliant: 0, non_compliant: 0, artifacts: [] };
  const running = latest.artifactsAt(
    latest.states.flatMap((state, position) => (state.instances > 0 ? [position] : [])),
  );
  const allowed = await store.environments.allowedIn(environment.id);
  const provenance = await policyProvenanceOf(
    store,
    org.id,
    running.map((artifact) => artifact.fingerprint),
    now,
  );
  const artifacts = running.map((artifact) => {
    const [decision] = evaluatePolicies(
      {
        name: artifact.name,
        fingerprint: artifact.fingerprint,
        provenance: provenance.provenanceOf(artifact.fingerprint),
      },
      [{ name: DRY_RUN_POLICY, version: 0, policy: model }],
    );
    const failing: FailingRule[] = [];
    decision.rule_evaluations.forEach((evaluation, position) => {
      if (!evaluation.satisfied)
        failing.push({ path: paths[position], type: evaluation.rule.type, reason: ruleFailure(evaluation) });
    });
    const isAllowed = allowed.has(artifact.fingerprint);
    return {
      name: artifact.name,
      fingerprint: artifact.fingerprint,
      compliant: isAllowed || failing.length === 0,
      allowed: isAllowed,
      recorded_compliant: artifact.compliant,
      failing_rules: failing,
    };
  });
  const compliant = artifacts.filter((artifact) => artifact.compliant).length;
  return {
    environment: environment.name,
    snapshot_index: latest.index,
    compliant,
    non_compliant: artifacts.length - compliant,
    artifacts,
  };
}
