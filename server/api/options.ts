// The options a server starts with (`cev serve` reads them from its flags and the --config YAML:
// server/commands/serveOptions.ts).
import type { Role } from './principal.ts';

export interface EvaluationBudget {
  /** Wall-clock seconds one request's evaluation may take (`--evaluation-timeout`). */
  seconds: number;
  /** MB of heap one worker may use (`--evaluation-memory`). */
  memoryMb: number;
}

/**
 * Far above what any evaluation within the shared limits takes (a template impact on a flow of
 * 10,000 trails: under 1 s; a policy at its rule-check limit: well under 1 s), so only a flow of
 * hundreds of thousands of trails or a runaway reaches them.
 */
export const DEFAULT_EVALUATION_BUDGET: EvaluationBudget = { seconds: 30, memoryMb: 128 };

export interface OrgConfig {
  name: string;
  features: { controls: boolean };
}

export interface ConfiguredKey {
  key: string;
  /** Org names, or 'all' for the admin key of `--api-key`. */
  orgs: readonly string[] | 'all';
  role: Role;
}

export interface ServeOptions {
  host: string;
  port: number;
  /** Set when the port came from the environment variable PORT (no --port), for messages. */
  portFrom?: 'PORT';
  /** Absolute data directory; undefined with `--memory`. */
  dataDir: string | undefined;
  orgs: OrgConfig[];
  /** The admin key for all orgs (CEV_API_KEY, or `--api-key`); generated and kept in the data dir otherwise. */
  apiKey: string | undefined;
  /** Where apiKey came from, for messages. */
  apiKeyFrom: 'CEV_API_KEY' | '--api-key' | undefined;
  apiKeys: ConfiguredKey[];
  publicUrl: string | undefined;
  /** A PostgreSQL URL (`--database`, else CEV_DATABASE_URL): the database instances of a team's server share. */
  databaseUrl: string | undefined;
  /** Where evidence files live, when not in the data directory (`--evidence`): a directory every instance reads. */
  evidenceDir: string | undefined;
  /** Below this many MB free in the data or evidence directory, /ready and the log warn (`--min-free-space`; 0: never). */
  minFreeMb: number;
  /** What one request's evaluation may take (`--evaluation-timeout`, `--evaluation-memory`). */
  evaluationBudget: EvaluationBudget;
  /** Webhooks may go to loopback, private, link-local and metadata addresses (`--allow-private-webhooks`): for local testing. */
  allowPrivateWebhooks: boolean;
}
