// Environment reports (spec endpoint 2, reference §2.6 and §5.1): validated by the shared report
// schemas, then taken in by the snapshot rules in one transaction; webhooks go out afterwards.
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import {
  checkReport,
  isReportType,
  reportSchemaByType,
  reportTypes,
  type ReportType,
} from '../../../../shared/reports/check.ts';
import { refusesUpload } from '../../../../shared/verdicts.ts';
import { orgOf } from '../auth.ts';
import { fieldErrorsOf } from '../../fieldErrors.ts';
import { routeCheckedJsonBody } from '../multipart.ts';
import type { RouteOptions } from '../context.ts';
import { badRequest, invalid, notFound } from '../../errors.ts';
import { nowSeconds } from '../../clock.ts';
import { deliverSoon } from '../../delivery/notifications.ts';
import { sendJsonString } from '../replies.ts';
import { ingestReport } from '../../services/snapshotting.ts';

const INVALID_REPORT = 'Invalid report data';

/**
 * The body of one report type as the OpenAPI document shows it. The route checks it itself, after
 * the environment is found, so that a report to a missing environment answers 404 whatever it holds.
 */
function reportBodyOf(type: ReportType) {
  const schema = reportSchemaByType[type];
  return routeCheckedJsonBody(`A ${type} report (the \`${schema}\` schema).`, {
    $ref: `https://compliance-evidence.dev/schemas/${schema}/v1`,
  });
}

export const reportRoutes: FastifyPluginCallback<RouteOptions> = (app, { context }, done) => {
  const { store } = context;

  type ReportRequest = FastifyRequest<{ Params: { org: string; env: string } }>;
  const report = async (request: ReportRequest, reply: FastifyReply, type: string) => {
    const org = orgOf(request);
    const { env } = request.params;
    const environment = await store.environments.byName(org.id, env);
    if (environment === undefined) throw notFound('Environment not found');
    if (environment.type === 'logical') {
      throw badRequest(
        `Environment '${env}' is logical and cannot receive reports; report to one of the physical environments it includes`,
      );
    }
    if (!isReportType(type)) {
      throw badRequest(
        `Unknown report type '${type}': use one of K8S, ECS, S3, lambda, server, docker, azure-apps or cloud-run`,
      );
    }
    if (type !== environment.type) {
      throw badRequest(`Environment '${env}' is of type ${environment.type}; a ${type} report cannot be sent to it`);
    }
    const issues = checkReport(type, request.body);
    if (issues.some(refusesUpload)) {
      const errors = fieldErrorsOf(issues, request.body);
      // The spec words a bad K8S report `Invalid report data`; other types keep the generic message.
      throw type === 'K8S' ? invalid(errors, INVALID_REPORT) : invalid(errors);
    }
    const deliveries = await store.transaction(
      async () => await ingestReport(context, org, environment, type, request.body, nowSeconds()),
    );
    deliverSoon(context, deliveries);
    return sendJsonString(reply, 200, 'OK');
  };

  // One operation per report type under its literal path (spec endpoint 2 and its siblings), each
  // documenting its own body; the parameter route below only answers types that do not exist.
  for (const type of reportTypes) {
    app.put<{ Params: { org: string; env: string } }>(
      `/environments/:org/:env/report/${type}`,
      { schema: { body: reportBodyOf(type) } },
      async (request, reply) => await report(request, reply, type),
    );
  }
  app.put<{ Params: { org: string; env: string; type: string } }>(
    '/environments/:org/:env/report/:type',
    { schema: { hide: true } },
    async (request, reply) => await report(request, reply, request.params.type),
  );
  done();
};
