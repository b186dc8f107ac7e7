// Environment policy evaluation (reference §4.4): one artifact against the policies that apply,
// giving `policy_decisions`, and how those decisions add up for an artifact, a snapshot and an
// assertion. A condition that fails to parse makes its rule's evaluation fail, which is where the
// service reports an invalid expression (the upload itself succeeds: shared/verdicts.ts): the rule
// is unsatisfied and carries the parse error.

import {
  evaluateCondition,
  parseCondition,
  type ConditionContext,
  type ParsedCondition,
} from '../expressions/index.ts';
import type { PolicyAttestationRule, PolicyCondition, PolicyModel, PolicyRequirement } from '../policies/model.ts';
import type { ComplianceState } from './status.ts';
import { typeFillsSlot, type TrailArtifact, type TrailAttestation } from './trail.ts';

/** One trail the artifact was attested in: its provenance in one flow. */
export interface ArtifactProvenance {
  flow_name: string;
  flow_tags?: Readonly<Record<string, string>> | null;
  trail_name: string;
  /** The trail's `compliance_state`. */
  compliance_state: ComplianceState;
  /** All the trail's stored attestation rows; those bound to other artifacts are ignored here. */
  attestations: readonly TrailAttestation[];
  /** All the trail's artifact rows, to resolve attestations bound by template artifact name. */
  artifacts: readonly TrailArtifact[];
}

/** A running artifact as a policy sees it. */
export interface PolicyArtifact {
  /** The reported name (for K8S, the image reference). */
  name: string;
  fingerprint: string;
  /** Every trail the fingerprint was attested in; empty when it has no provenance. */
  provenance: readonly ArtifactProvenance[];
}

/** A policy as attached: its name, the version evaluated and its normalized model. */
export interface AppliedPolicy {
  name: string;
  version: number;
  policy: PolicyModel;
}

export type ResolutionType =
  | 'rule_satisfied'
  | 'rule_not_applicable'
  | 'missing_attestation'
  | 'non_compliant_attestation'
  | 'non_compliant_in_trail'
  | 'legacy_flow';

// A decision and its parts are type aliases, not interfaces, so that they are the contract's open
// objects (shared/contract policyDecision) as they are: an interface never matches an index signature.
export type Resolution = {
  type: ResolutionType;
  context: { flow_name?: string; trail_name?: string; artifact_status?: ComplianceState; for_control?: string };
};

export type RuleType = 'provenance' | 'trail-compliance' | 'attestation';

export type RuleEvaluation = {
  rule: { type: RuleType; definition: Record<string, unknown> };
  satisfied: boolean;
  ignored: boolean;
  resolutions: Resolution[];
  /** Why the rule could not be evaluated: one of its conditions is not a valid expression. */
  error?: string;
};

export type PolicyStatus = 'COMPLIANT' | 'NON-COMPLIANT';

export type PolicyDecision = {
  policy_name: string;
  policy_version: number;
  status: PolicyStatus;
  rule_evaluations: RuleEvaluation[];
};

/**
 * The artifact's decision under each policy, in the order given. Rules that are not required
 * (`required: false`) are not evaluated. An attestation rule holds when at least one of the
 * artifact's trails where its `if` holds carries a matching attestation (compliant, unless
 * `must_be_compliant: false`); trail compliance must hold in every trail not excepted.
 */
export function evaluatePolicies(artifact: PolicyArtifact, policies: readonly AppliedPolicy[]): PolicyDecision[] {
  return policies.map(({ name, version, policy }) => {
    const evaluations: RuleEvaluation[] = [];
    const { provenance, trail_compliance: trailCompliance, attestations } = policy.artifacts;
    const exceptionConditions = (requirement: PolicyRequirement) =>
      requirement.exceptions.map((exception) => exception.if_condition);
    if (provenance.required)
      evaluations.push(failedOnInvalid(provenanceRule(artifact, provenance), exceptionConditions(provenance)));
    if (trailCompliance.required)
      evaluations.push(
        failedOnInvalid(trailComplianceRule(artifact, trailCompliance), exceptionConditions(trailCompliance)),
      );
    for (const rule of attestations)
      evaluations.push(failedOnInvalid(attestationRule(artifact, rule), [rule.if_condition]));
    const status: PolicyStatus = evaluations.every((evaluation) => evaluation.satisfied)
      ? 'COMPLIANT'
      : 'NON-COMPLIANT';
    return { policy_name: name, policy_version: version, status, rule_evaluations: evaluations };
  });
}

/**
 * The rule checks judging artifacts under policies takes: each evaluated rule and exception, once
 * per trail of the artifact's provenance (once for an artifact without one). What a snapshot's
 * evaluation costs, known before it runs (limits.policyRuleChecks bounds it).
 */
export function ruleChecksOf(trailCounts: Iterable<number>, policies: readonly AppliedPolicy[]): number {
  let rules = 0;
  for (const { policy } of policies) {
    const { provenance, trail_compliance: trailCompliance, attestations } = policy.artifacts;
    rules += attestations.length;
    for (const requirement of [provenance, trailCompliance])
      if (requirement.required) rules += 1 + requirement.exceptions.length;
  }
  let checks = 0;
  for (const trails of trailCounts) checks += rules * Math.max(1, trails);
  return checks;
}

/** Where each evaluated rule stands in the policy document, in the order of `rule_evaluations`. */
export function rulePathsOf(policy: PolicyModel): Array<Array<string | number>> {
  const paths: Array<Array<string | number>> = [];
  if (policy.artifacts.provenance.required) paths.push(['artifacts', 'provenance']);
  if (policy.artifacts.trail_compliance.required) paths.push(['artifacts', 'trail-compliance']);
  policy.artifacts.attestations.forEach((_, index) => paths.push(['artifacts', 'attestations', index]));
  return paths;
}

/** A snapshot artifact's `compliant`: all its policies compliant; null when no policy applies. */
export function artifactPolicyCompliance(decisions: readonly PolicyDecision[]): boolean | null {
  return decisions.length === 0 ? null : decisions.every((decision) => decision.status === 'COMPLIANT');
}

/** A snapshot's `compliant`: false without policies (reference §4.4), else every artifact compliant. */
export function snapshotCompliance(artifactCompliances: readonly (boolean | null)[], policyCount: number): boolean {
  return policyCount > 0 && artifactCompliances.every((compliant) => compliant === true);
}

/** Assert artifact in environment or policy scope: vacuously true without policies (reference §2.10). */
export function assertedCompliance(decisions: readonly PolicyDecision[]): boolean {
  return decisions.every((decision) => decision.status === 'COMPLIANT');
}

/** A snapshot's `artifact_compliance_count`. */
export function artifactComplianceCount(artifactCompliances: readonly (boolean | null)[]): {
  true: number;
  false: number;
  null: number;
} {
  const count = { true: 0, false: 0, null: 0 };
  for (const compliant of artifactCompliances) count[String(compliant) as 'true' | 'false' | 'null']++;
  return count;
}

/** One sentence per failed rule, for a snapshot artifact's `reasons_for_incompliance`. */
export function reasonsForIncompliance(decisions: readonly PolicyDecision[]): string[] {
  const reasons: string[] = [];
  for (const decision of decisions) {
    for (const evaluation of decision.rule_evaluations) {
      if (evaluation.satisfied) continue;
      reasons.push(`Policy '${decision.policy_name}' (version ${decision.policy_version}): ${ruleFailure(evaluation)}`);
    }
  }
  return reasons;
}

/** Why one failed rule failed, as a clause; views read the same words the server's reasons carry. */
export function ruleFailure(evaluation: RuleEvaluation): string {
  if (evaluation.error !== undefined) return evaluation.error;
  if (evaluation.rule.type === 'provenance') return 'the artifact has no provenance (it was never attested to a flow)';
  const where = (resolution: Resolution) =>
    resolution.context.flow_name
      ? ` in trail '${resolution.context.trail_name}' of flow '${resolution.context.flow_name}'`
      : '';
  if (evaluation.rule.type === 'trail-compliance') {
    const failing = evaluation.resolutions.filter((resolution) => resolution.type === 'non_compliant_in_trail');
    if (failing.length === 0) return 'trail compliance is required but the artifact has no trail';
    return failing
      .map((resolution) => `the trail is ${resolution.context.artifact_status}${where(resolution)}`)
      .join('; ');
  }
  const { name, type } = evaluation.rule.definition;
  const wanted = `attestation '${String(name)}' of type '${String(type)}'`;
  return evaluation.resolutions
    .map((resolution) => {
      const control = resolution.context.for_control ? ` for control '${resolution.context.for_control}'` : '';
      const state = resolution.type === 'non_compliant_attestation' ? 'is not compliant' : 'is missing';
      return `${wanted}${control} ${state}${where(resolution)}`;
    })
    .join('; ');
}

function provenanceRule(artifact: PolicyArtifact, requirement: PolicyRequirement): RuleEvaluation {
  const rule = { type: 'provenance' as const, definition: requirementDefinition(requirement) };
  const flows = artifact.provenance.length === 0 ? [null] : artifact.provenance;
  if (flows.some((trail) => excepted(requirement, artifact, trail))) {
    return { rule, satisfied: true, ignored: true, resolutions: [{ type: 'rule_not_applicable', context: {} }] };
  }
  if (artifact.provenance.length === 0) return { rule, satisfied: false, ignored: false, resolutions: [] };
  return {
    rule,
    satisfied: true,
    ignored: false,
    resolutions: artifact.provenance.map((trail) => ({ type: 'rule_satisfied', context: where(trail) })),
  };
}

function trailComplianceRule(artifact: PolicyArtifact, requirement: PolicyRequirement): RuleEvaluation {
  const rule = { type: 'trail-compliance' as const, definition: requirementDefinition(requirement) };
  if (artifact.provenance.length === 0) {
    if (excepted(requirement, artifact, null)) {
      return { rule, satisfied: true, ignored: true, resolutions: [{ type: 'rule_not_applicable', context: {} }] };
    }
    return { rule, satisfied: false, ignored: false, resolutions: [] };
  }
  const resolutions = artifact.provenance.map((trail): Resolution => {
    if (excepted(requirement, artifact, trail)) return { type: 'rule_not_applicable', context: where(trail) };
    const context = { ...where(trail), artifact_status: trail.compliance_state };
    return { type: trail.compliance_state === 'COMPLIANT' ? 'rule_satisfied' : 'non_compliant_in_trail', context };
  });
  return {
    rule,
    satisfied: resolutions.every((resolution) => resolution.type !== 'non_compliant_in_trail'),
    ignored: resolutions.every((resolution) => resolution.type === 'rule_not_applicable'),
    resolutions,
  };
}

function attestationRule(artifact: PolicyArtifact, rule: PolicyAttestationRule): RuleEvaluation {
  const definition: Record<string, unknown> = {
    name: rule.name,
    type: rule.type,
    must_be_compliant: rule.must_be_compliant,
  };
  if (rule.if_condition) definition.if = rule.if_condition.text;
  if (rule.for_control !== null) definition.for_control = rule.for_control;
  const evaluation = { type: 'attestation' as const, definition };
  const control = rule.for_control === null ? {} : { for_control: rule.for_control };
  const applies = (trail: ArtifactProvenance | null) =>
    !rule.if_condition || holds(rule.if_condition, contextOf(artifact, trail), true);

  if (artifact.provenance.length === 0) {
    if (!applies(null))
      return {
        rule: evaluation,
        satisfied: true,
        ignored: true,
        resolutions: [{ type: 'rule_not_applicable', context: {} }],
      };
    return {
      rule: evaluation,
      satisfied: false,
      ignored: false,
      resolutions: [{ type: 'missing_attestation', context: { ...control } }],
    };
  }
  const applicable = artifact.provenance.filter(applies);
  if (applicable.length === 0) {
    const resolutions = artifact.provenance.map((trail): Resolution => ({
      type: 'rule_not_applicable',
      context: where(trail),
    }));
    return { rule: evaluation, satisfied: true, ignored: true, resolutions };
  }
  const outcomes = applicable.map((trail) => ({
    trail,
    outcome: attestationOutcome(rule, trail, artifact.fingerprint),
  }));
  const satisfying = outcomes.filter(({ outcome }) => outcome === 'rule_satisfied');
  const shown = satisfying.length > 0 ? satisfying : outcomes;
  return {
    rule: evaluation,
    satisfied: satisfying.length > 0,
    ignored: false,
    resolutions: shown.map(({ trail, outcome }) => ({ type: outcome, context: { ...where(trail), ...control } })),
  };
}

/** Whether one trail carries what the rule asks for, judged on the latest version of each matching name. */
function attestationOutcome(
  rule: PolicyAttestationRule,
  trail: ArtifactProvenance,
  fingerprint: string,
): ResolutionType {
  const latestByName = new Map<string, TrailAttestation>();
  const candidates = attestationsOf(trail, fingerprint).filter(
    (attestation) =>
      (rule.name === '*' || attestation.name === rule.name) &&
      typeFillsSlot(rule.type, attestation.type) &&
      (rule.for_control === null || attestation.control === rule.for_control || attestation.is_override === true),
  );
  for (const attestation of candidates) {
    const known = latestByName.get(attestation.name);
    if (!known || attestation.created_at >= known.created_at) latestByName.set(attestation.name, attestation);
  }
  if (latestByName.size === 0) return 'missing_attestation';
  if (rule.must_be_compliant && [...latestByName.values()].some((attestation) => !attestation.is_compliant))
    return 'non_compliant_attestation';
  return 'rule_satisfied';
}

/** The trail's own attestations plus those bound to this artifact (by fingerprint or by its template name). */
function attestationsOf(trail: ArtifactProvenance, fingerprint: string): TrailAttestation[] {
  const slots = new Set(
    trail.artifacts
      .filter((artifact) => artifact.fingerprint === fingerprint)
      .map((artifact) => artifact.template_reference_name),
  );
  return trail.attestations.filter((attestation) => {
    if (attestation.target_artifact) return slots.has(attestation.target_artifact);
    if (attestation.artifact_fingerprint) return attestation.artifact_fingerprint === fingerprint;
    return true;
  });
}

function excepted(requirement: PolicyRequirement, artifact: PolicyArtifact, trail: ArtifactProvenance | null): boolean {
  return requirement.exceptions.some(
    (exception) => exception.if_condition === null || holds(exception.if_condition, contextOf(artifact, trail), false),
  );
}

function requirementDefinition(requirement: PolicyRequirement): Record<string, unknown> {
  return {
    required: requirement.required,
    exceptions: requirement.exceptions.map((exception) => ({ if: exception.if_condition?.text ?? null })),
  };
}

function where(trail: ArtifactProvenance): { flow_name: string; trail_name: string } {
  return { flow_name: trail.flow_name, trail_name: trail.trail_name };
}

function contextOf(artifact: PolicyArtifact, trail: ArtifactProvenance | null): ConditionContext {
  return {
    flow: trail ? { name: trail.flow_name, tags: trail.flow_tags ?? {} } : null,
    artifact: { name: artifact.name, fingerprint: artifact.fingerprint },
  };
}

// Each condition of a policy model is parsed once, for as long as the model lives (the server keeps
// the models of policy versions): a cache by text that is cleared when full parsed every condition
// again on every artifact once a policy had more conditions than it held.
const parsedConditions = new WeakMap<PolicyCondition, ParsedCondition>();

/** The evaluation, failed with the first parse error of its conditions when one does not parse. */
function failedOnInvalid(evaluation: RuleEvaluation, conditions: readonly (PolicyCondition | null)[]): RuleEvaluation {
  for (const condition of conditions) {
    const error = condition === null ? undefined : parsedOf(condition).errors[0];
    if (error !== undefined) {
      return {
        ...evaluation,
        satisfied: false,
        ignored: false,
        error: `the condition ${condition!.text} is not a valid expression: ${error.message}`,
      };
    }
  }
  return evaluation;
}

function parsedOf(condition: PolicyCondition): ParsedCondition {
  let parsed = parsedConditions.get(condition);
  if (!parsed) {
    parsed = parseCondition(condition.text);
    parsedConditions.set(condition, parsed);
  }
  return parsed;
}

/** Whether a condition holds; `whenInvalid` when it does not parse (the rule then fails anyway). Parses each text once. */
function holds(condition: PolicyCondition, context: ConditionContext, whenInvalid: boolean): boolean {
  const parsed = parsedOf(condition);
  return parsed.expression ? evaluateCondition(parsed.expression, context) : whenInvalid;
}
