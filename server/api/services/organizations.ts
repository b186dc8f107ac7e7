// Organizations (reference §8.4): the org a request names, as the access check found it; orgs are
// made from the server's configuration, not through the API.
import type { Organization } from '../../../shared/contract/types.ts';
import type { Org } from '../store/orgs.ts';
import { organizationView } from '../views/organizations.ts';
import type { ServiceDeps } from './index.ts';

export function organizationService({ publicUrl }: Pick<ServiceDeps, 'publicUrl'>) {
  return {
    answerOf(org: Org): Organization {
      return organizationView(publicUrl(), org);
    },
  };
}
