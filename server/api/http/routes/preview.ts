// The project's read-only preview operations (an extension of the API v2, tagged so in the OpenAPI
// document): a flow template's impact on the flow's trails and a policy's dry-run on an
// environment's latest snapshot. POST only because the text travels as a body; they need the
// access of reading trails and snapshots, and store nothing.
import type { FastifyPluginCallback } from 'fastify';
import { policyDryRunInput, templateImpactInput, templateImpactQuery } from '../../../../shared/contract/index.ts';
import { orgOf } from '../auth.ts';
import type { RouteOptions } from '../context.ts';
import { nowSeconds } from '../../clock.ts';
import { environmentOr404, flowOr404 } from '../../services/lookups.ts';
import { policyDryRunOf } from '../../services/policyDryRun.ts';
import { templateImpactOf } from '../../services/templateImpact.ts';
import { envParams, flowParams } from './params.ts';

export const previewRoutes: FastifyPluginCallback<RouteOptions> = (app, { context }, done) => {
  const { store } = context;

  app.post<{ Params: { org: string; flow: string }; Body: { template: string }; Querystring: { limit?: number } }>(
    '/flows/:org/:flow/template-impact',
    { schema: { params: flowParams, body: templateImpactInput, querystring: templateImpactQuery } },
    async (request) => {
      const flow = await flowOr404(store, orgOf(request), request.params.flow);
      return await templateImpactOf(store, flow, request.body.template, request.query.limit ?? 100);
    },
  );

  app.post<{ Params: { org: string; env: string }; Body: { policy: string } }>(
    '/environments/:org/:env/policy-dry-run',
    { schema: { params: envParams, body: policyDryRunInput } },
    async (request) => {
      const org = orgOf(request);
      const environment = await environmentOr404(store, org, request.params.env);
      return await policyDryRunOf(store, org, environment, request.body.policy, nowSeconds());
    },
  );
  done();
};
