// Assert an artifact (reference §2.10): whether an artifact is compliant in the flows that
// attested it, or under an environment's policies (its allowlist too), or under named policies.
import {
  artifactState,
  assertedCompliance,
  evaluatePolicies,
  evaluateTrail,
  type ArtifactProvenance as PolicyProvenance,
} from '../../../shared/compliance/index.ts';
import type { AssertResult } from '../../../shared/contract/types.ts';
import { nowSeconds } from '../clock.ts';
import { assertedFlowView } from '../views/policies.ts';
import type { Org } from '../store/orgs.ts';
import type { CurrentPolicy } from '../store/policies.ts';
import type { ServiceDeps } from './index.ts';
import { artifactNotFound } from '../notFound.ts';
import { environmentOr404, namedPoliciesOr404 } from './lookups.ts';
import { appliedPoliciesOf } from './policyVerdicts.ts';

/** What to assert the artifact against; nothing named: the flows that attested it. */
export interface AssertScope {
  flow_name?: string;
  environment_name?: string;
  policy_name?: string[];
}

export function assertService({ store, publicUrl }: Pick<ServiceDeps, 'store' | 'publicUrl'>) {
  return {
    async verdictOn(org: Org, fingerprint: string, scope: AssertScope): Promise<AssertResult> {
      const now = nowSeconds();
      let origins = (await store.provenance.originsOf(org.id, [fingerprint])).get(fingerprint) ?? [];
      if (scope.flow_name !== undefined) origins = origins.filter((origin) => origin.flowName === scope.flow_name);
      if (origins.length === 0) {
        throw artifactNotFound(org.name, fingerprint, scope.flow_name);
      }
      // One entry per flow: the trail the fingerprint was last attested in there.
      const evaluations = new Map(
        origins.map((origin) => [
          origin.trailId,
          evaluateTrail(origin.trailTemplate, origin.attestations, origin.artifacts, now, origin.flowTemplateId),
        ]),
      );
      const latestPerFlow = new Map(origins.map((origin) => [origin.flowName, origin]));
      const evaluated = [...latestPerFlow.values()].map((origin) => ({
        origin,
        evaluation: evaluations.get(origin.trailId)!,
      }));
      const flows = evaluated.map(({ origin, evaluation }) =>
        assertedFlowView(origin.flowName, origin.trailName, evaluation),
      );
      const first = evaluated[0].origin;
      const htmlUrl = `${publicUrl()}/${encodeURIComponent(org.name)}/flows/${encodeURIComponent(first.flowName)}/artifacts/${fingerprint}?artifact_id=${first.artifactId}`;
      const policyNames = scope.policy_name ?? [];
      if (scope.environment_name === undefined && policyNames.length === 0) {
        return {
          scope: 'flow',
          compliant: artifactState(evaluated.map(({ evaluation }) => evaluation.compliance_state)) === 'COMPLIANT',
          flows,
          html_url: htmlUrl,
        };
      }
      let policies: CurrentPolicy[];
      let environment: string | undefined;
      let allowed = false;
      if (scope.environment_name !== undefined) {
        const env = await environmentOr404(store, org, scope.environment_name);
        environment = env.name;
        policies = await store.policies.attachedTo(env.id);
        allowed = (await store.environments.allowedIn(env.id)).has(fingerprint);
      } else {
        policies = namedPoliciesOr404(org, policyNames, await store.policies.currentByNames(org.id, policyNames));
      }
      const provenance: PolicyProvenance[] = origins.map((origin) => ({
        flow_name: origin.flowName,
        flow_tags: origin.flowTags,
        trail_name: origin.trailName,
        compliance_state: evaluations.get(origin.trailId)!.compliance_state,
        attestations: origin.attestations,
        artifacts: origin.artifacts,
      }));
      const decisions = evaluatePolicies(
        { name: first.filename, fingerprint, provenance },
        appliedPoliciesOf(policies),
      );
      return {
        scope: environment === undefined ? 'policy' : 'environment',
        // An artifact allowed in the environment is compliant there, as in its snapshots (reference §2.17).
        compliant: allowed || assertedCompliance(decisions),
        ...(environment === undefined ? {} : { environment }),
        policy_evaluations: decisions,
        flows,
        html_url: htmlUrl,
      };
    },
  };
}
