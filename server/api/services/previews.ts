// The read-only previews (project extension): what an edited flow template would do to the flow's
// trails (templateImpact.ts) and what an edited policy would say about what runs now in an
// environment (policyDryRun.ts), each evaluated by a worker within its budget. Nothing is stored.
import { nowSeconds } from '../clock.ts';
import type { TemplateImpact } from '../rules/templateImpact.ts';
import type { Org } from '../store/orgs.ts';
import type { ServiceDeps } from './index.ts';
import { environmentOr404, flowOr404 } from './lookups.ts';
import { policyDryRunOf, type PolicyDryRun } from './policyDryRun.ts';
import { templateImpactOf } from './templateImpact.ts';

export function previewService({ store, evaluations }: Pick<ServiceDeps, 'store' | 'evaluations'>) {
  return {
    /** The template's impact on the live flow's trails, listing at most `listLimit` changed trails. */
    async templateImpact(org: Org, flowName: string, templateText: string, listLimit: number): Promise<TemplateImpact> {
      const flow = await flowOr404(store, org, flowName);
      return await templateImpactOf(store, evaluations, flow, templateText, listLimit);
    },

    /** The policy's verdicts on the live environment's latest snapshot, listing at most `listLimit` artifacts. */
    async policyDryRun(org: Org, envName: string, policyText: string, listLimit: number): Promise<PolicyDryRun> {
      const environment = await environmentOr404(store, org, envName);
      return await policyDryRunOf(store, evaluations, org, environment, policyText, nowSeconds(), listLimit);
    },
  };
}
