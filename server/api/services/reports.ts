// Environment reports (spec endpoint 2, reference §2.6 and §5.1): checked against the environment
// they are sent to and by the shared report schemas, then taken in by the snapshot rules in one
// transaction; the webhooks the snapshot triggers go out once it has committed.
import { checkReport, isReportType } from '../../../shared/reports/check.ts';
import { refusesUpload } from '../../../shared/verdicts.ts';
import { nowSeconds } from '../clock.ts';
import { deliverSoon } from '../delivery/notifications.ts';
import { badRequest, invalid } from '../errors.ts';
import { fieldErrorsOf } from '../fieldErrors.ts';
import type { Org } from '../store/orgs.ts';
import type { ServiceDeps } from './index.ts';
import { environmentOr404 } from './lookups.ts';
import { ingestReport } from './snapshotting.ts';

const INVALID_REPORT = 'Invalid report data';

export function reportService(deps: Pick<ServiceDeps, 'store' | 'publicUrl' | 'deliverer'>) {
  const { store } = deps;
  return {
    /**
     * Takes a report of `type` into the physical environment `env`. The environment is found
     * first, so a report to a missing one answers 404 whatever it holds; then the type must be
     * the environment's, and the report valid for it.
     */
    async take(org: Org, env: string, type: string, report: unknown): Promise<void> {
      const environment = await environmentOr404(store, org, env, 'short');
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
      const issues = checkReport(type, report);
      if (issues.some(refusesUpload)) {
        const errors = fieldErrorsOf(issues, report);
        // The spec words a bad K8S report `Invalid report data`; other types keep the generic message.
        throw type === 'K8S' ? invalid(errors, INVALID_REPORT) : invalid(errors);
      }
      const deliveries = await store.transaction(
        async () => await ingestReport(deps, org, environment, type, report, nowSeconds()),
      );
      deliverSoon(deps, deliveries);
    },
  };
}
