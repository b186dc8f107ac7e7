// Environment report bodies (PUT /environments/{org}/{env}/report/{TYPE}), one schema per type.
import type { Issue } from '../findings.ts';
import { schemaIssues } from '../schemas/issues.ts';
import type { SchemaName } from '../schemas/index.ts';

export const reportTypes = ['K8S', 'ECS', 'S3', 'lambda', 'server', 'docker', 'azure-apps', 'cloud-run'] as const;

export type ReportType = (typeof reportTypes)[number];

/** The schema each report type's body is checked with. */
export const reportSchemaByType: Readonly<Record<ReportType, SchemaName>> = {
  K8S: 'k8s-report',
  ECS: 'ecs-report',
  S3: 's3-report',
  lambda: 'lambda-report',
  server: 'server-report',
  docker: 'docker-report',
  'azure-apps': 'azure-apps-report',
  'cloud-run': 'cloud-run-report',
};

export function isReportType(type: string): type is ReportType {
  return Object.hasOwn(reportSchemaByType, type);
}

export function checkReport(type: ReportType, value: unknown): Issue[] {
  return schemaIssues(reportSchemaByType[type], value, 'report');
}

export function checkK8sReport(value: unknown): Issue[] {
  return checkReport('K8S', value);
}
