// Environment reports (spec endpoint 2, reference §2.6 and §5.1): one operation per report type,
// each documenting its body, which the report service checks once it has found the environment.
import { reportSchemaByType, reportTypes, type ReportType } from '../../../../shared/reports/check.ts';
import { orgOf } from '../auth.ts';
import { routeCheckedJsonBody } from '../multipart.ts';
import type { RoutePlugin } from '../context.ts';
import { sendJsonString } from '../replies.ts';
import { envParams } from './params.ts';

/**
 * The body of one report type as the OpenAPI document shows it. The service checks it itself, after
 * the environment is found, so that a report to a missing environment answers 404 whatever it holds.
 */
function reportBodyOf(type: ReportType) {
  const schema = reportSchemaByType[type];
  return routeCheckedJsonBody(`A ${type} report (the \`${schema}\` schema).`, {
    $ref: `https://compliance-evidence.dev/schemas/${schema}/v1`,
  });
}

const typedReportParams = {
  ...envParams,
  required: ['org', 'env', 'type'],
  properties: { ...envParams.properties, type: { type: 'string' } },
} as const;

export const reportRoutes: RoutePlugin = (app, { services }, done) => {
  // One operation per report type under its literal path (spec endpoint 2 and its siblings), each
  // documenting its own body; the parameter route below only answers types that do not exist.
  for (const type of reportTypes) {
    app.put(
      `/environments/:org/:env/report/${type}`,
      { schema: { params: envParams, body: reportBodyOf(type) } },
      async (request, reply) => {
        await services.reports.take(orgOf(request), request.params.env, type, request.body);
        return sendJsonString(reply, 200, 'OK');
      },
    );
  }
  app.put(
    '/environments/:org/:env/report/:type',
    { schema: { hide: true, params: typedReportParams } },
    async (request, reply) => {
      await services.reports.take(orgOf(request), request.params.env, request.params.type, request.body);
      return sendJsonString(reply, 200, 'OK');
    },
  );
  done();
};
