// The API's answers as the tests read them: each record's type derived from the wire contract
// (shared/contract) the server is held to, so a test that reads a field the contract does not
// have fails type-checking instead of reading `undefined`. Pass one to the harness:
// `server.json<Flow>('GET', ...)`, `server.json<Page<Trail>>('GET', ...)`.
import type { FromSchema } from 'json-schema-to-ts';
import type { apiKey, issuedApiKey, membershipEvent, repo, serviceAccount } from '../../shared/contract/accounts.ts';
import type { artifact, assertResult, policyDecision, searchResult } from '../../shared/contract/artifacts.ts';
import type {
  allowlistEntry,
  environment,
  environmentDiff,
  environmentEvent,
  snapshot,
  snapshotSummary,
} from '../../shared/contract/environments.ts';
import type { errorBody } from '../../shared/contract/errors.ts';
import type { attestation, complianceStatus, flow, flowAttestationRecord, trail } from '../../shared/contract/flows.ts';
import type { action, control, controlDecision, customType, policy } from '../../shared/contract/governance.ts';
import type { pagination } from '../../shared/contract/pagination.ts';
import type { policyDryRun, templateImpact } from '../../shared/contract/preview.ts';

export type ErrorBody = FromSchema<typeof errorBody>;
export type Pagination = FromSchema<typeof pagination>;
export interface Page<T> {
  data: T[];
  pagination: Pagination;
}

export type Flow = FromSchema<typeof flow>;
export type Trail = FromSchema<typeof trail>;
export type Attestation = FromSchema<typeof attestation>;
export type FlowAttestation = FromSchema<typeof flowAttestationRecord>;
export type ComplianceStatus = FromSchema<typeof complianceStatus>;
export type Artifact = FromSchema<typeof artifact>;
export type SearchResult = FromSchema<typeof searchResult>;
export type PolicyDecision = FromSchema<typeof policyDecision>;
export type AssertResult = FromSchema<typeof assertResult>;
export type Environment = FromSchema<typeof environment>;
export type SnapshotSummary = FromSchema<typeof snapshotSummary>;
export type Snapshot = FromSchema<typeof snapshot>;
export type EnvironmentEvent = FromSchema<typeof environmentEvent>;
export type EnvironmentDiff = FromSchema<typeof environmentDiff>;
export type AllowlistEntry = FromSchema<typeof allowlistEntry>;
export type Policy = FromSchema<typeof policy>;
export type Control = FromSchema<typeof control>;
export type ControlDecision = FromSchema<typeof controlDecision>;
export type Action = FromSchema<typeof action>;
export type CustomType = FromSchema<typeof customType>;
export type ServiceAccount = FromSchema<typeof serviceAccount>;
export type ApiKey = FromSchema<typeof apiKey>;
export type IssuedApiKey = FromSchema<typeof issuedApiKey>;
export type Repo = FromSchema<typeof repo>;
export type MembershipEvent = FromSchema<typeof membershipEvent>;
export type TemplateImpact = FromSchema<typeof templateImpact>;
export type PolicyDryRun = FromSchema<typeof policyDryRun>;

/** An operation of the OpenAPI document, as far as the tests read it. */
export interface OpenApiOperation {
  tags?: string[];
  description?: string;
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown> } }> };
}

/** The OpenAPI document (`/api/v2/openapi.json`), which the contract calls only an object: the parts the tests read. */
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, unknown> };
  tags: Array<{ name: string }>;
}
