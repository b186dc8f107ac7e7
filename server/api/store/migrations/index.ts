// Every migration, listed so that the bundler includes them (no files are read at run time).
// Ids sort in apply order: 001–099 are the server core and issue 3's resources, 100–199 issue 4's.
import { migration001 } from './001-orgs-and-keys.ts';
import { migration002 } from './002-flows-trails-evidence.ts';
import { migration003 } from './003-trail-versions.ts';
import { migration004 } from './004-user-settings.ts';
import { migration005 } from './005-repo-tags.ts';
import { migration006 } from './006-list-orders.ts';
import { migration007 } from './007-list-counts.ts';
import { migration101 } from './101-environments.ts';
import { migration102 } from './102-policies.ts';
import { migration103 } from './103-controls-and-actions.ts';
import { migration104 } from './104-allowlists.ts';
import { migration201 } from './201-membership-events.ts';
import { migration202 } from './202-environment-and-control-lists.ts';
import { migration203 } from './203-trail-states.ts';
import { migration204 } from './204-policy-and-action-lists.ts';
import { migration205 } from './205-webhook-outbox.ts';
import { migration206 } from './206-one-update-per-row.ts';
import { migration207 } from './207-trail-orders.ts';
import { migration208 } from './208-evidence-references.ts';
import { migration209 } from './209-archived-flows.ts';
import { migration210 } from './210-principal-settings.ts';
import { migration230 } from './230-webhook-targets.ts';
import { migration240 } from './240-list-gaps.ts';
import { migration241 } from './241-trail-positions.ts';
import { migration242 } from './242-artifact-positions.ts';
import { migration243 } from './243-attestation-positions.ts';
import { migration244 } from './244-event-positions.ts';
import { migration280 } from './280-control-versions-and-decisions.ts';
import { migration281 } from './281-deployments.ts';
import { migration282 } from './282-membership-roles.ts';
import { migration290 } from './290-trail-event-reports.ts';
import { migration305 } from './305-trails-by-state.ts';
import type { Statements } from '../db.ts';

export interface Migration {
  /** Zero-padded number and a short name, e.g. `001-orgs-and-keys`. */
  id: string;
  /** The SQL, as SQLite reads it; store/postgres/dialect.ts gives PostgreSQL's form. */
  sql: string;
  /** PostgreSQL's SQL where the translated form will not do. */
  postgres?: string;
  /** What SQL cannot compute (the shared core, keys computed in JavaScript), run after the SQL in the same transaction, on both engines. */
  backfill?: (statements: Statements) => Promise<void>;
}

export const migrations: readonly Migration[] = [
  migration001,
  migration002,
  migration003,
  migration004,
  migration005,
  migration006,
  migration007,
  migration101,
  migration102,
  migration103,
  migration104,
  migration201,
  migration202,
  migration203,
  migration204,
  migration205,
  migration206,
  migration207,
  migration208,
  migration209,
  migration210,
  migration230,
  migration240,
  migration241,
  migration242,
  migration243,
  migration244,
  migration280,
  migration281,
  migration282,
  migration290,
  migration305,
];
