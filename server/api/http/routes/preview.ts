// The project's read-only preview operations (an extension of the API v2, tagged so in the OpenAPI
// document): a flow template's impact on the flow's trails and a policy's dry-run on an
// environment's latest snapshot. POST only because the text travels as a body; they need the
// access of reading trails and snapshots, and store nothing.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import {
  policyDryRunInput,
  policyDryRunQuery,
  templateImpactInput,
  templateImpactQuery,
} from '../../../../shared/contract/index.ts';
import { orgOf } from '../auth.ts';
import type { RoutePlugin } from '../context.ts';
import { envParams, flowParams } from './params.ts';
import { limits, sizeText } from '../../../../shared/limits.ts';

/**
 * The body of a preview: one template or policy as a JSON string. At the document size limit,
 * with every character escaped (`\\uXXXX`), it is six times as long; anything longer is refused
 * from its declared length, before the server reads and parses it.
 */
const BODY_LIMIT = 6 * limits.documentChars + 1024;

export const previewRoutes: RoutePlugin = (app, { services }, done) => {
  const { previews } = services;
  // The app's handler, for every error but a body over BODY_LIMIT, which says what the limit is.
  const appErrorHandler = app.errorHandler;
  const errorHandler = (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    if (error.code !== 'FST_ERR_CTP_BODY_TOO_LARGE') {
      appErrorHandler(error, request, reply);
      return;
    }
    void reply.code(413).send({
      message: `Request body is too large: a preview takes at most ${sizeText(BODY_LIMIT)}, a template or policy at most ${sizeText(limits.documentChars)}`,
    });
  };

  app.post(
    '/flows/:org/:flow/template-impact',
    {
      bodyLimit: BODY_LIMIT,
      errorHandler,
      schema: { params: flowParams, body: templateImpactInput, querystring: templateImpactQuery },
    },
    async (request) =>
      await previews.templateImpact(
        orgOf(request),
        request.params.flow,
        request.body.template,
        request.query.limit ?? 100,
      ),
  );

  app.post(
    '/environments/:org/:env/policy-dry-run',
    {
      bodyLimit: BODY_LIMIT,
      errorHandler,
      schema: { params: envParams, body: policyDryRunInput, querystring: policyDryRunQuery },
    },
    async (request) =>
      await previews.policyDryRun(orgOf(request), request.params.env, request.body.policy, request.query.limit ?? 100),
  );
  done();
};
