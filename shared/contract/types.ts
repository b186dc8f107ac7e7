// The wire types: what each answer of the contract is, as TypeScript derives it from the schema
// (json-schema-to-ts). The server's views return these, so a renderer that drifts from the
// contract does not compile; the extension reads the same answers through shared/apiClient/types.ts
// (made sparse for the hosted service) and the language server its previews.
import type { FromSchema } from 'json-schema-to-ts';
import type { apiKey, defaultOrg, issuedApiKey, membershipEvent, repo, serviceAccount } from './accounts.ts';
import type { artifact, assertResult, searchArtifact, searchResult } from './artifacts.ts';
import type {
  build,
  buildStatistics,
  deployment,
  deploymentFrequency,
  liveArtifact,
  repoDeploymentStatistics,
} from './deployments.ts';
import type {
  attestationsByCommit,
  controlCoverage,
  controlVersion,
  criteriaAttestation,
  listedDecision,
  organization,
  repoFilterOptions,
  tagOptions,
} from './catalogue.ts';
import type {
  allowlistEntry,
  environment,
  environmentDiff,
  environmentEvent,
  snapshot,
  snapshotArtifact,
  snapshotSummary,
} from './environments.ts';
import type {
  artifactStatus,
  attestation,
  attestationStatus,
  flow,
  flowAttestationRecord,
  gitCommitInfo,
  templateAttestation,
  trail,
  trailEvent,
} from './flows.ts';
import type { action, control, controlDecision, customType, policy, systemType } from './governance.ts';
import type { pagination } from './pagination.ts';
import type { policyDryRun, slotChange, templateImpact } from './preview.ts';

export type Repo = FromSchema<typeof repo>;
export type DefaultOrg = FromSchema<typeof defaultOrg>;
export type ServiceAccount = FromSchema<typeof serviceAccount>;
export type ApiKey = FromSchema<typeof apiKey>;
export type IssuedApiKey = FromSchema<typeof issuedApiKey>;
export type MembershipEvent = FromSchema<typeof membershipEvent>;

export type Pagination = FromSchema<typeof pagination>;
export type Flow = FromSchema<typeof flow>;
export type TemplateAttestation = FromSchema<typeof templateAttestation>;
export type AttestationStatus = FromSchema<typeof attestationStatus>;
export type ArtifactStatus = FromSchema<typeof artifactStatus>;
export type Trail = FromSchema<typeof trail>;
export type TrailEventAnswer = FromSchema<typeof trailEvent>;
export type GitCommitInfo = FromSchema<typeof gitCommitInfo>;
export type Attestation = FromSchema<typeof attestation>;
export type FlowAttestationRecord = FromSchema<typeof flowAttestationRecord>;
export type Environment = FromSchema<typeof environment>;
export type SnapshotSummary = FromSchema<typeof snapshotSummary>;
export type SnapshotArtifact = FromSchema<typeof snapshotArtifact>;
export type Snapshot = FromSchema<typeof snapshot>;
export type EnvironmentEvent = FromSchema<typeof environmentEvent>;
export type EnvironmentDiff = FromSchema<typeof environmentDiff>;
export type AllowlistEntry = FromSchema<typeof allowlistEntry>;
export type Artifact = FromSchema<typeof artifact>;
export type SearchArtifact = FromSchema<typeof searchArtifact>;
export type SearchResult = FromSchema<typeof searchResult>;
export type TemplateImpact = FromSchema<typeof templateImpact>;
export type SlotChange = FromSchema<typeof slotChange>;
export type PolicyDryRun = FromSchema<typeof policyDryRun>;
export type Control = FromSchema<typeof control>;
export type ControlDecision = FromSchema<typeof controlDecision>;
export type Policy = FromSchema<typeof policy>;
export type AssertResult = FromSchema<typeof assertResult>;
export type Action = FromSchema<typeof action>;
export type CustomAttestationType = FromSchema<typeof customType>;
export type SystemAttestationType = FromSchema<typeof systemType>;
export type CriteriaAttestation = FromSchema<typeof criteriaAttestation>;
export type AttestationsByCommit = FromSchema<typeof attestationsByCommit>;
export type TagOptions = FromSchema<typeof tagOptions>;
export type RepoFilterOptions = FromSchema<typeof repoFilterOptions>;
export type ControlVersion = FromSchema<typeof controlVersion>;
export type ListedControlDecision = FromSchema<typeof listedDecision>;
export type ControlCoverage = FromSchema<typeof controlCoverage>;
export type Deployment = FromSchema<typeof deployment>;
export type DeploymentFrequency = FromSchema<typeof deploymentFrequency>;
export type RepoDeploymentStatistics = FromSchema<typeof repoDeploymentStatistics>;
export type LiveArtifact = FromSchema<typeof liveArtifact>;
export type Build = FromSchema<typeof build>;
export type BuildStatistics = FromSchema<typeof buildStatistics>;
export type Organization = FromSchema<typeof organization>;
