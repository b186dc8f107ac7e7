// Environments (reference §2.5) and their allowlists (§2.17) as the API answers them.
import type { AllowlistEntry, Environment } from '../../../shared/contract/types.ts';
import type { AllowlistEntry as AllowlistRow, Environment as EnvironmentRow } from '../store/environments.ts';
import { htmlUrl } from './urls.ts';

export function environmentView(host: string, orgName: string, environment: EnvironmentRow): Environment {
  return {
    org: orgName,
    name: environment.name,
    type: environment.type,
    description: environment.description,
    created_by: environment.createdBy,
    created_at: environment.createdAt,
    last_modified_at: environment.lastModifiedAt,
    last_reported_at: environment.lastReportedAt,
    last_changed_at: environment.lastChangedAt,
    state: environment.state,
    // Deprecated: has no effect and always reads false (spec §Versioning 3).
    include_scaling: false,
    require_provenance: environment.requireProvenance,
    tags: environment.tags,
    policies: environment.policies,
    included_environments: environment.included,
    snapshot_count: environment.snapshotCount,
    html_url: htmlUrl.environment(host, orgName, environment.name),
  };
}

export function allowlistEntryView(entry: AllowlistRow): AllowlistEntry {
  return {
    environment_name: entry.environmentName,
    artifact_fingerprint: entry.artifactFingerprint,
    artifact_name: entry.artifactName,
    description: entry.description,
    created_by: entry.createdBy,
    created_at: entry.createdAt,
  };
}
