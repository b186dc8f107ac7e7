// The store interface the routes use. Each resource has its own module (interface + SQLite
// implementation); this file composes them over one connection. All SQL lives in store/.
// A resource module is added with one import and one field below.
import { Sql } from './db.ts';
import { fileEvidenceStore, memoryEvidenceStore, type EvidenceStore } from './evidence.ts';
import { applyMigrations } from './migrate.ts';
import { migrations } from './migrations/index.ts';
import { sqliteOrgStore, type OrgStore } from './orgs.ts';
import { sqliteServiceAccountStore, type ServiceAccountStore } from './serviceAccounts.ts';
import { sqliteFlowStore, type FlowStore } from './flows.ts';
import { sqliteTrailStore, type TrailStore } from './trails.ts';
import { sqliteArtifactStore, type ArtifactStore } from './artifacts.ts';
import { sqliteAttestationStore, type AttestationStore } from './attestations.ts';
import { sqliteCustomTypeStore, type CustomTypeStore } from './customTypes.ts';
import { sqliteRepoStore, type RepoStore } from './repos.ts';
import { sqliteUserSettingsStore, type UserSettingsStore } from './userSettings.ts';
import { sqliteActionStore, type ActionStore } from './actions.ts';
import { sqliteControlStore, type ControlStore } from './controls.ts';
import { sqliteEnvironmentStore, type EnvironmentStore } from './environments.ts';
import { sqlitePolicyStore, type PolicyStore } from './policies.ts';
import { sqliteProvenanceStore, type ProvenanceStore } from './provenance.ts';
import { sqliteSnapshotStore, type SnapshotStore } from './snapshots.ts';
import { join } from 'node:path';

export interface Store {
  /** Runs one request's writes in one transaction; `work` must be synchronous. */
  transaction<T>(work: () => T): T;
  readonly orgs: OrgStore;
  readonly serviceAccounts: ServiceAccountStore;
  readonly flows: FlowStore;
  readonly trails: TrailStore;
  readonly artifacts: ArtifactStore;
  readonly attestations: AttestationStore;
  readonly customTypes: CustomTypeStore;
  readonly repos: RepoStore;
  readonly userSettings: UserSettingsStore;
  readonly evidence: EvidenceStore;
  readonly environments: EnvironmentStore;
  readonly snapshots: SnapshotStore;
  readonly provenance: ProvenanceStore;
  readonly policies: PolicyStore;
  readonly controls: ControlStore;
  readonly actions: ActionStore;
  close(): void;
}

export interface StoreLocation {
  /** The data directory; undefined keeps everything in memory (`--memory`). */
  dataDir: string | undefined;
}

function databaseFile(dataDir: string): string {
  return join(dataDir, 'cev.sqlite');
}

export function openStore(location: StoreLocation): Store {
  const sql = new Sql(location.dataDir === undefined ? undefined : databaseFile(location.dataDir));
  try {
    applyMigrations(sql, migrations);
  } catch (error) {
    sql.close();
    throw error;
  }
  return {
    transaction: (work) => sql.transaction(work),
    orgs: sqliteOrgStore(sql),
    serviceAccounts: sqliteServiceAccountStore(sql),
    flows: sqliteFlowStore(sql),
    trails: sqliteTrailStore(sql),
    artifacts: sqliteArtifactStore(sql),
    attestations: sqliteAttestationStore(sql),
    customTypes: sqliteCustomTypeStore(sql),
    repos: sqliteRepoStore(sql),
    userSettings: sqliteUserSettingsStore(sql),
    evidence: location.dataDir === undefined ? memoryEvidenceStore() : fileEvidenceStore(join(location.dataDir, 'evidence')),
    environments: sqliteEnvironmentStore(sql),
    snapshots: sqliteSnapshotStore(sql),
    provenance: sqliteProvenanceStore(sql),
    policies: sqlitePolicyStore(sql),
    controls: sqliteControlStore(sql),
    actions: sqliteActionStore(sql),
    close: () => sql.close(),
  };
}
