// What the policies attached to an environment say about the artifacts running there, for a
// snapshot: each running artifact with its provenance and verdict. The evaluation's cost is known
// before it runs (ruleChecksOf); past limits.policyRuleChecks the policies are not evaluated and
// every artifact that is not allowed counts as non-compliant, saying why, so a report is always
// recorded in bounded time and nothing passes unjudged.
import {
  artifactPolicyCompliance,
  evaluatePolicies,
  reasonsForIncompliance,
  ruleChecksOf,
  type AppliedPolicy,
  type PolicyDecision,
} from '../../../shared/compliance/index.ts';
import { limits, tooManyRuleChecksMessage } from '../../../shared/limits.ts';
import { normalizePolicy, type PolicyModel } from '../../../shared/policies/model.ts';
import { parseYaml } from '../../../shared/text/parse.ts';
import type { RunningArtifact } from '../rules/runningArtifacts.ts';
import { evaluatedArtifactOf, type ArtifactProvenance, type EvaluatedArtifact } from '../rules/snapshotArtifacts.ts';
import type { Org } from '../store/orgs.ts';
import type { CurrentPolicy } from '../store/policies.ts';
import type { ServiceDeps } from './index.ts';
import { policyProvenanceOf } from './policyProvenance.ts';

export interface Policies {
  applied: AppliedPolicy[];
  current: CurrentPolicy[];
  /** Fingerprints allowed in the environment (reference §2.17): compliant whatever the policies say. */
  allowed: ReadonlySet<string>;
}

// A policy's parsed model is kept by its text: the model is a function of the text alone, so the
// cache is right for every database a process serves (ids are only unique within one).
const models = new Map<string, PolicyModel>();
const MODEL_CACHE_LIMIT = 256;

function modelOf(policy: CurrentPolicy): PolicyModel {
  let model = models.get(policy.policyYaml);
  if (model === undefined) {
    if (models.size >= MODEL_CACHE_LIMIT) models.clear();
    model = normalizePolicy(parseYaml(policy.policyYaml).value);
    models.set(policy.policyYaml, model);
  }
  return model;
}

/** Policies as the shared evaluator takes them, each version parsed once. */
export function appliedPoliciesOf(current: readonly CurrentPolicy[]): AppliedPolicy[] {
  return current.map((policy) => ({ name: policy.name, version: policy.version, policy: modelOf(policy) }));
}

export async function policiesOf({ store }: Pick<ServiceDeps, 'store'>, environmentId: number): Promise<Policies> {
  const current = await store.policies.attachedTo(environmentId);
  return {
    current,
    applied: appliedPoliciesOf(current),
    allowed: await store.environments.allowedIn(environmentId),
  };
}

/** Why the policies are not evaluated on these artifacts, when that would take more than limits.policyRuleChecks. */
function notEvaluatedReason(trailCounts: number[], policies: Policies): string | undefined {
  const checks = ruleChecksOf(trailCounts, policies.applied);
  if (checks <= limits.policyRuleChecks) return undefined;
  return `Not evaluated: ${tooManyRuleChecksMessage('the attached policies', checks)}; detach policies or split the environment`;
}

/** Each running artifact with its provenance and the attached policies' verdict. */
export async function evaluatedArtifactsOf(
  { store, publicUrl }: Pick<ServiceDeps, 'store' | 'publicUrl'>,
  org: Org,
  running: readonly RunningArtifact[],
  policies: Policies,
  now: number,
): Promise<EvaluatedArtifact[]> {
  const provenance = await policyProvenanceOf(
    store,
    org.id,
    running.map((artifact) => artifact.fingerprint),
    now,
  );
  const host = publicUrl();
  const notEvaluated = notEvaluatedReason(
    running.map((artifact) => provenance.originsOf(artifact.fingerprint).length),
    policies,
  );
  return running.map((artifact) => {
    const shown: ArtifactProvenance[] = provenance.originsOf(artifact.fingerprint).map((origin) => {
      const flowUrl = `${host}/${encodeURIComponent(org.name)}/flows/${encodeURIComponent(origin.flowName)}`;
      return {
        flow_name: origin.flowName,
        trail_name: origin.trailName,
        template_reference_name: origin.templateReferenceName,
        git_commit: origin.gitCommit,
        commit_url: origin.commitUrl,
        build_url: origin.buildUrl,
        html_url: `${flowUrl}/artifacts/${origin.fingerprint}?artifact_id=${origin.artifactId}`,
        flow_html_url: flowUrl,
        repo_name: origin.repoName,
        git_commit_info: origin.gitCommitInfo,
        repo_url: origin.repoUrl,
        compliance_state: origin.complianceState,
      };
    });
    const decisions: PolicyDecision[] =
      policies.applied.length === 0 || notEvaluated !== undefined
        ? []
        : evaluatePolicies(
            {
              name: artifact.name,
              fingerprint: artifact.fingerprint,
              provenance: provenance.provenanceOf(artifact.fingerprint),
            },
            policies.applied,
          );
    // An allowed artifact counts as compliant; its policy decisions still show what the rules say.
    const allowed = policies.allowed.has(artifact.fingerprint);
    if (notEvaluated !== undefined)
      return evaluatedArtifactOf(artifact, shown, {
        compliant: allowed,
        reasons: allowed ? [] : [notEvaluated],
        policyDecisions: decisions,
      });
    return evaluatedArtifactOf(artifact, shown, {
      compliant: allowed ? true : artifactPolicyCompliance(decisions),
      reasons: allowed ? [] : reasonsForIncompliance(decisions),
      policyDecisions: decisions,
    });
  });
}
