// The store interface the services use. Each resource has its own module (its interface, and its
// statements in the SQL both engines read); this file composes them over the statements of SQLite
// (sqlite/) or PostgreSQL (postgres/). All SQL lives in store/. A resource module is added with one
// import and one field below.
import type { Statements, TransactionOptions } from './db.ts';
import { fileEvidenceStore, memoryEvidenceStore, type EvidenceStore } from './evidence.ts';
import { PostgresDatabase } from './postgres/database.ts';
import { applyPostgresMigrations } from './postgres/migrate.ts';
import { SqliteConnection, SqliteDatabase } from './sqlite/database.ts';
import { applySqliteMigrations } from './sqlite/migrate.ts';
import { migrations } from './migrations/index.ts';
import { orgStore, type OrgStore } from './orgs.ts';
import { serviceAccountStore, type ServiceAccountStore } from './serviceAccounts.ts';
import { flowStore, type FlowStore } from './flows.ts';
import { trailStore, type TrailStore } from './trails.ts';
import { artifactStore, type ArtifactStore } from './artifacts.ts';
import { attestationStore, type AttestationStore } from './attestations.ts';
import { customTypeStore, type CustomTypeStore } from './customTypes.ts';
import { repoStore, type RepoStore } from './repos.ts';
import { userSettingsStore, type UserSettingsStore } from './userSettings.ts';
import { membershipStore, type MembershipStore } from './membership.ts';
import { actionStore, type ActionStore } from './actions.ts';
import { controlStore, type ControlStore } from './controls.ts';
import { deploymentStore, type DeploymentStore } from './deployments.ts';
import { environmentStore, type EnvironmentStore } from './environments.ts';
import { policyStore, type PolicyStore } from './policies.ts';
import { provenanceStore, type ProvenanceStore } from './provenance.ts';
import { snapshotStore, type SnapshotStore } from './snapshots.ts';
import { snapshotTallyStore, type SnapshotTallyStore } from './snapshotTallies.ts';
import { outboxStore, type OutboxEngine, type OutboxStore } from './outbox.ts';
import { trailEvaluationStore, type TrailEvaluationStore } from './trailEvaluations.ts';
import { evaluateQueuedTrails, evaluateTrailsBeforeCommit } from './trailStates.ts';
import { join } from 'node:path';

/** Connections per instance: enough for concurrent reads, few enough that several instances fit PostgreSQL's default of 100. */
const POSTGRES_CONNECTIONS = 20;

export interface Store {
  /**
   * Runs one request's writes in one transaction: `work` gets the store to use inside it (store
   * calls in its async context join it as well); a transaction started inside joins the outer one.
   */
  transaction<T>(work: (tx: Store) => Promise<T>, options?: TransactionOptions): Promise<T>;
  readonly orgs: OrgStore;
  readonly serviceAccounts: ServiceAccountStore;
  readonly flows: FlowStore;
  readonly trails: TrailStore;
  readonly trailEvaluations: TrailEvaluationStore;
  readonly artifacts: ArtifactStore;
  readonly attestations: AttestationStore;
  readonly customTypes: CustomTypeStore;
  readonly repos: RepoStore;
  readonly userSettings: UserSettingsStore;
  readonly membership: MembershipStore;
  readonly evidence: EvidenceStore;
  readonly environments: EnvironmentStore;
  readonly snapshots: SnapshotStore;
  readonly snapshotTallies: SnapshotTallyStore;
  readonly provenance: ProvenanceStore;
  readonly policies: PolicyStore;
  readonly controls: ControlStore;
  readonly deployments: DeploymentStore;
  readonly actions: ActionStore;
  /** Webhook deliveries waiting to be made (delivery/deliverer.ts). */
  readonly outbox: OutboxStore;
  /** Whether the database answers now (the readiness probe). */
  reachable(): Promise<boolean>;
  close(): Promise<void>;
}

/** A write's result, once the trails it wrote are evaluated (store/trailStates.ts), before its transaction ends. */
async function withTrailStates<T>(statements: Statements, result: T, concurrent: boolean): Promise<T> {
  // A concurrent transaction on PostgreSQL reads committed state and has its writes applied at
  // commit, so it cannot evaluate the trails it wrote: its commit does, once for every
  // transaction committed with it (PostgresDatabase's beforeCommit).
  if (!concurrent) await evaluateQueuedTrails(statements);
  return result;
}

export interface StoreLocation {
  /** The data directory; undefined keeps everything in memory (`--memory`). */
  dataDir: string | undefined;
  /** A PostgreSQL URL: the database every instance of a team's server shares (instead of SQLite in the data directory). */
  databaseUrl?: string;
  /** Where evidence files live when not in the data directory (a directory every instance reads). */
  evidenceDir?: string;
}

function databaseFile(dataDir: string): string {
  return join(dataDir, 'cev.sqlite');
}

/** Evidence where the location keeps it; `statements` answer whether a committed row refers to a file. */
function evidenceStoreOf(location: StoreLocation, statements: Statements): EvidenceStore {
  const attestations = attestationStore(statements);
  const isReferenced = (sha: string): Promise<boolean> => attestations.referencesEvidence(sha);
  if (location.evidenceDir !== undefined) return fileEvidenceStore(location.evidenceDir, isReferenced);
  return location.dataDir === undefined
    ? memoryEvidenceStore()
    : fileEvidenceStore(join(location.dataDir, 'evidence'), isReferenced);
}

/** The store of each resource over one connection's statements. */
function resourceStores(
  sql: Statements,
  evidence: EvidenceStore,
  outbox: OutboxEngine,
): Omit<Store, 'transaction' | 'reachable' | 'close'> {
  return {
    orgs: orgStore(sql),
    serviceAccounts: serviceAccountStore(sql),
    flows: flowStore(sql),
    trails: trailStore(sql),
    trailEvaluations: trailEvaluationStore(sql),
    artifacts: artifactStore(sql),
    attestations: attestationStore(sql),
    customTypes: customTypeStore(sql),
    repos: repoStore(sql),
    userSettings: userSettingsStore(sql),
    membership: membershipStore(sql),
    evidence,
    environments: environmentStore(sql),
    snapshots: snapshotStore(sql),
    snapshotTallies: snapshotTallyStore(sql),
    provenance: provenanceStore(sql),
    policies: policyStore(sql),
    controls: controlStore(sql),
    deployments: deploymentStore(sql),
    actions: actionStore(sql),
    outbox: outboxStore(sql, outbox),
  };
}

/** Opens the store a server runs on: PostgreSQL at `databaseUrl`, else SQLite in the data directory (or memory). */
export async function openStore(location: StoreLocation): Promise<Store> {
  if (location.databaseUrl !== undefined) return openPostgresStore(location.databaseUrl, location);
  return await openSqliteStore(location);
}

async function openPostgresStore(url: string, location: StoreLocation): Promise<Store> {
  const database = new PostgresDatabase(url, POSTGRES_CONNECTIONS, evaluateTrailsBeforeCommit);
  try {
    await applyPostgresMigrations(database.pool, migrations);
  } catch (error) {
    await database.close();
    throw error;
  }
  const store: Store = {
    transaction: (work, options) =>
      database.transaction(
        async () => withTrailStates(database.statements, await work(store), options?.concurrent === true),
        options,
      ),
    // A claim is one statement that commits at once: outside a transaction it runs on a pooled
    // connection, without the write lock every transaction of the store takes.
    ...resourceStores(database.statements, evidenceStoreOf(location, database.statements), {
      claiming: (claim) => claim(),
      lockClause: ' FOR UPDATE SKIP LOCKED',
    }),
    reachable: () => database.reachable(),
    close: () => database.close(),
  };
  return store;
}

async function openSqliteStore(location: StoreLocation): Promise<Store> {
  const file = location.dataDir === undefined ? undefined : databaseFile(location.dataDir);
  const writer = new SqliteConnection(file);
  try {
    await applySqliteMigrations(writer, migrations);
  } catch (error) {
    writer.close();
    throw error;
  }
  const database = new SqliteDatabase(writer, file === undefined ? writer : new SqliteConnection(file, true), file);
  const store: Store = {
    // Every transaction takes its turn on SQLite's one write connection: a concurrent one too.
    transaction: (work) =>
      database.transaction(async () => withTrailStates(database.statements, await work(store), false)),
    // One process writes the file, so a claim in a write transaction is never raced.
    ...resourceStores(database.statements, evidenceStoreOf(location, database.statements), {
      claiming: (claim) => database.transaction(claim),
      lockClause: '',
    }),
    reachable: () => Promise.resolve(true),
    close: () => database.close(),
  };
  return store;
}
