// Policy dry-run (project extension), the evaluation itself: the artifacts running in an
// environment's latest snapshot judged by the shared policy evaluator under an edited policy
// alone, each failing rule with its place in the document and the reason. Bounded whatever the
// policy and the snapshot: the rule checks are counted before any runs (limits.policyRuleChecks),
// at most `listLimit` artifacts are listed (the non-compliant first), each with at most
// LISTED_DETAILS failing rules.
import {
  evaluatePolicies,
  ruleChecksOf,
  ruleFailure,
  rulePathsOf,
  type AppliedPolicy,
  type RuleType,
} from '../../../shared/compliance/index.ts';
import { LISTED_DETAILS } from '../../../shared/contract/index.ts';
import { limits, tooManyRuleChecksMessage } from '../../../shared/limits.ts';
import type { PolicyModel } from '../../../shared/policies/model.ts';
import { ApiError } from '../errors.ts';
import type { Origin } from '../store/provenance.ts';
import { provenanceFrom } from './policyProvenance.ts';

export interface FailingRule {
  path: Array<string | number>;
  type: RuleType;
  reason: string;
}

export interface DryRunArtifact {
  name: string;
  fingerprint: string;
  compliant: boolean;
  allowed: boolean;
  recorded_compliant: boolean | null;
  failing_rules: FailingRule[];
  failing_rules_total: number;
}

/** A running artifact as the snapshot recorded it. */
export interface RunningArtifact {
  name: string;
  fingerprint: string;
  compliant: boolean | null;
}

export interface DryRunInput {
  running: readonly RunningArtifact[];
  /** The store's origins of the running fingerprints. */
  origins: ReadonlyMap<string, Origin[]>;
  /** Fingerprints on the environment's allowlist. */
  allowed: ReadonlySet<string>;
  now: number;
  listLimit: number;
}

/** The name the dry-run gives the edited policy in its evaluation. */
const DRY_RUN_POLICY = 'dry-run';

/** Refuses (422) to evaluate `policies` on artifacts of these trail counts past limits.policyRuleChecks. */
function refuseCostlyEvaluation(trailCounts: Iterable<number>, policies: AppliedPolicy[]): void {
  const checks = ruleChecksOf(trailCounts, policies);
  if (checks > limits.policyRuleChecks) throw new ApiError(422, tooManyRuleChecksMessage('The dry-run', checks));
}

/** The dry-run's counts and listed artifacts. */
export function dryRunOf(
  model: PolicyModel,
  input: DryRunInput,
): { compliant: number; non_compliant: number; artifacts: DryRunArtifact[] } {
  const policies = [{ name: DRY_RUN_POLICY, version: 0, policy: model }];
  const provenance = provenanceFrom(input.origins, input.now);
  refuseCostlyEvaluation(
    input.running.map((artifact) => provenance.originsOf(artifact.fingerprint).length),
    policies,
  );
  const paths = rulePathsOf(model);
  const judged = input.running.map((artifact): DryRunArtifact => {
    const [decision] = evaluatePolicies(
      {
        name: artifact.name,
        fingerprint: artifact.fingerprint,
        provenance: provenance.provenanceOf(artifact.fingerprint),
      },
      policies,
    );
    const failing: FailingRule[] = [];
    let failingTotal = 0;
    decision.rule_evaluations.forEach((evaluation, position) => {
      if (evaluation.satisfied) return;
      failingTotal += 1;
      if (failing.length < LISTED_DETAILS)
        failing.push({ path: paths[position], type: evaluation.rule.type, reason: ruleFailure(evaluation) });
    });
    const isAllowed = input.allowed.has(artifact.fingerprint);
    return {
      name: artifact.name,
      fingerprint: artifact.fingerprint,
      compliant: isAllowed || failingTotal === 0,
      allowed: isAllowed,
      recorded_compliant: artifact.compliant,
      failing_rules: failing,
      failing_rules_total: failingTotal,
    };
  });
  const nonCompliant = judged.filter((artifact) => !artifact.compliant);
  const listed = [...nonCompliant, ...judged.filter((artifact) => artifact.compliant)].slice(0, input.listLimit);
  return { compliant: judged.length - nonCompliant.length, non_compliant: nonCompliant.length, artifacts: listed };
}
