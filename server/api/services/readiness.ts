// Whether this instance can serve (the readiness probe): while its database answers, a load
// balancer sends it requests; low disk space does not take it out (reads still work), it is said.
import type { ServiceDeps } from './index.ts';

export type Readiness = { ready: true; warning?: string } | { ready: false };

export function readinessService({ store, freeSpaceWarning }: Pick<ServiceDeps, 'store' | 'freeSpaceWarning'>) {
  return {
    async now(): Promise<Readiness> {
      if (!(await store.reachable())) return { ready: false };
      const warning = await freeSpaceWarning?.();
      return warning === undefined ? { ready: true } : { ready: true, warning };
    },
  };
}
