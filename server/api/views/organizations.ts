// An organization as the API answers it (reference §8.4; shape inferred, see shared/contract/catalogue.ts).
import type { Organization } from '../../../shared/contract/types.ts';
import type { Org } from '../store/orgs.ts';
import { htmlUrl } from './urls.ts';

export function organizationView(host: string, org: Org): Organization {
  return {
    name: org.name,
    display_name: org.name,
    created_at: org.createdAt,
    features: { controls: org.features.controls },
    html_url: htmlUrl.flows(host, org.name),
  };
}
