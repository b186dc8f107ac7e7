// A snapshot as display data (design §10): what runs in the environment at that point, each
// artifact's compliance and, when it fails, which policy rule failed and why (in the same words
// as the server's reasons_for_incompliance); what stopped running; the policies applied. Input is
// the API's Snapshot object (`GET /snapshots/{org}/{env}/{expr}`) and the environment's name.

import { ruleFailure, type RuleEvaluation } from '../compliance/policies.ts';
import {
  countsText,
  runningArtifactVerdict,
  snapshotVerdict,
  type ComplianceCounts,
  type Verdict,
} from '../compliance/vocabulary.ts';
import { isRecord, listOf, numberOf, textOf, timeOf, urlDisplay, type ViewRef, type ViewUrl } from './links.ts';

export interface FailedRuleDisplay {
  policy: string;
  version: number;
  /** The rule as a policy file names it: `provenance`, `trail-compliance`, or `attestation <name> (<type>)`. */
  rule: string;
  reason: string;
}

/** One trail the artifact was attested in. */
export interface SnapshotProvenanceDisplay {
  flow: string;
  trail: string;
  templateReferenceName: string;
  gitCommit: string;
  commitUrl: ViewUrl | null;
  buildUrl: ViewUrl | null;
  flowRef: ViewRef;
  trailRef: ViewRef | null;
}

export interface SnapshotArtifactDisplay {
  name: string;
  fingerprint: string | null;
  compliance: Verdict;
  /** started, changed, unchanged or exited, relative to the snapshot before. */
  change: string;
  instances: { was: number; now: number };
  /** Pods as `namespace/pod`, when the environment reports pods. */
  pods: string[];
  provenance: SnapshotProvenanceDisplay[];
  failedRules: FailedRuleDisplay[];
  /** The server's own sentences; shown when a failure has no rule evaluation (e.g. not allowlisted). */
  reasons: string[];
  ref: ViewRef | null;
}

/** An artifact a policy fails, by the name it runs under in the snapshot (its fingerprint when it has none there). */
export interface FailingArtifactDisplay {
  name: string;
  fingerprint: string;
  ref: ViewRef | null;
}

export interface SnapshotDisplay {
  environment: string;
  index: number;
  /** `env#N`. */
  title: string;
  isLatest: boolean;
  time: string | null;
  compliance: Verdict;
  /** Whether any policy judged the snapshot: without one, no artifact has a verdict. */
  judged: boolean;
  counts: ComplianceCounts;
  /** The counts in words: how many artifacts are compliant, or that none was judged. */
  countsText: string;
  policies: { name: string; version: number; failingArtifacts: FailingArtifactDisplay[] }[];
  /** What runs in this snapshot. */
  running: SnapshotArtifactDisplay[];
  /** What ran in the snapshot before and stopped. */
  exited: SnapshotArtifactDisplay[];
  environmentRef: ViewRef;
  previous: ViewRef | null;
  next: ViewRef | null;
  /** This snapshot compared with the one before it. */
  comparedWithPrevious: ViewRef | null;
}

/** `artifact_compliance_count` as display numbers. */
export function complianceCountsOf(value: unknown): ComplianceCounts {
  const count = isRecord(value) ? value : {};
  return { compliant: numberOf(count.true), nonCompliant: numberOf(count.false), unknown: numberOf(count.null) };
}

export function snapshotDisplay(environment: string, snapshot: Record<string, unknown>): SnapshotDisplay {
  const index = numberOf(snapshot.index);
  const isLatest = snapshot.is_latest === true;
  const applied = listOf(snapshot.applied_policies);
  const judged = applied.length > 0;
  const counts = complianceCountsOf(snapshot.artifact_compliance_count);
  const artifacts = listOf(snapshot.artifacts).map((artifact) => snapshotArtifactDisplay(artifact, judged));
  const byFingerprint = new Map(artifacts.map((artifact) => [artifact.fingerprint, artifact]));
  const failing = (fingerprint: string): FailingArtifactDisplay => {
    const artifact = byFingerprint.get(fingerprint);
    return { name: artifact?.name || fingerprint, fingerprint, ref: artifact?.ref ?? null };
  };
  return {
    environment,
    index,
    title: `${environment}#${index}`,
    isLatest,
    time: timeOf(snapshot.timestamp ?? snapshot.from),
    compliance: snapshotVerdict(snapshot.compliant, applied.length, counts),
    judged,
    counts,
    countsText: countsText(counts, judged),
    policies: applied.map((policy) => ({
      name: textOf(policy.name),
      version: numberOf(policy.version),
      failingArtifacts: Array.isArray(policy.failing_artifacts)
        ? policy.failing_artifacts.map(textOf).map(failing)
        : [],
    })),
    running: artifacts.filter((artifact) => artifact.change !== 'exited'),
    exited: artifacts.filter((artifact) => artifact.change === 'exited'),
    environmentRef: { kind: 'environment', environment },
    previous: index > 1 ? { kind: 'snapshot', environment, index: index - 1 } : null,
    next: isLatest || index < 1 ? null : { kind: 'snapshot', environment, index: index + 1 },
    comparedWithPrevious:
      index > 1 ? { kind: 'comparison', from: { environment, index: index - 1 }, to: { environment, index } } : null,
  };
}

function snapshotArtifactDisplay(artifact: Record<string, unknown>, judged: boolean): SnapshotArtifactDisplay {
  const annotation = isRecord(artifact.annotation) ? artifact.annotation : {};
  const fingerprint =
    typeof artifact.fingerprint === 'string' && artifact.fingerprint !== '' ? artifact.fingerprint : null;
  const provenance = listOf(artifact.flows).map(provenanceDisplay);
  const firstFlow = provenance[0]?.flow ?? textOf(artifact.flow_name);
  const reasons = Array.isArray(artifact.reasons_for_incompliance) ? artifact.reasons_for_incompliance.map(textOf) : [];
  return {
    name: textOf(artifact.name),
    fingerprint,
    compliance: runningArtifactVerdict(artifact.compliant, judged, reasons),
    change: textOf(annotation.type) || 'unchanged',
    instances: { was: numberOf(annotation.was), now: numberOf(annotation.now) },
    pods: isRecord(artifact.pods)
      ? Object.entries(artifact.pods).map(([pod, about]) =>
          isRecord(about) && typeof about.namespace === 'string' && about.namespace !== ''
            ? `${about.namespace}/${pod}`
            : pod,
        )
      : [],
    provenance,
    failedRules: listOf(artifact.policy_decisions).flatMap(failedRulesOf),
    reasons,
    ref: fingerprint === null || firstFlow === '' ? null : { kind: 'artifact', flow: firstFlow, fingerprint },
  };
}

function provenanceDisplay(entry: Record<string, unknown>): SnapshotProvenanceDisplay {
  const flow = textOf(entry.flow_name);
  const trail = textOf(entry.trail_name);
  return {
    flow,
    trail,
    templateReferenceName: textOf(entry.template_reference_name),
    gitCommit: textOf(entry.git_commit),
    commitUrl: urlDisplay('commit', entry.commit_url),
    buildUrl: urlDisplay('build', entry.build_url),
    flowRef: { kind: 'flow', flow },
    trailRef: trail === '' ? null : { kind: 'trail', flow, trail },
  };
}

function failedRulesOf(decision: Record<string, unknown>): FailedRuleDisplay[] {
  const policy = textOf(decision.policy_name);
  const version = numberOf(decision.policy_version);
  return listOf(decision.rule_evaluations)
    .filter((evaluation) => evaluation.satisfied !== true && isRecord(evaluation.rule))
    .map((evaluation) => {
      const rule = evaluation.rule as Record<string, unknown>;
      const definition = isRecord(rule.definition) ? rule.definition : {};
      const wellFormed: RuleEvaluation = {
        rule: { type: textOf(rule.type) as RuleEvaluation['rule']['type'], definition },
        satisfied: false,
        ignored: evaluation.ignored === true,
        resolutions: listOf(evaluation.resolutions).map((resolution) => ({
          type: textOf(resolution.type) as RuleEvaluation['resolutions'][number]['type'],
          context: isRecord(resolution.context)
            ? (resolution.context as RuleEvaluation['resolutions'][number]['context'])
            : {},
        })),
        ...(typeof evaluation.error === 'string' ? { error: evaluation.error } : {}),
      };
      const label =
        rule.type === 'attestation'
          ? `attestation ${textOf(definition.name)} (${textOf(definition.type)})`
          : textOf(rule.type);
      return { policy, version, rule: label, reason: ruleFailure(wellFormed) };
    });
}
