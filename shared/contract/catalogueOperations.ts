// The hosted operations of reference §8.4 that this server serves on their own literal paths (a
// literal segment wins over a `{name}` parameter of ours). `inferred` marks an answer whose hosted
// shape is not known: it is built from the operation's request and the spec's resources, and
// openapi.json says so (`x-shape: inferred`).
import {
  attestationsByCommit,
  controlCoverage,
  controlVersion,
  listedDecision,
  organization,
  repoFilterOptions,
  tagOptions,
} from './catalogue.ts';
import {
  build,
  buildStatistics,
  deployment,
  deploymentFrequency,
  liveArtifact,
  repoDeploymentStatistics,
} from './deployments.ts';
import { linkedDataPage, orPlaceholder } from './pagination.ts';
import { action, systemType } from './governance.ts';

export const catalogue = {
  'GET /attestations/{org}/list_attestations_for_criteria': {
    summary:
      'Attestations by commit: of a flow, a type, a name (`slot.name` for an artifact slot) and a list of commits (`commit_list`, repeated)',
    responses: { 200: attestationsByCommit },
  },
  'GET /attestations/system-attestation-types': {
    summary: 'List the system attestation types (also at /system-attestation-types/{org})',
    responses: { 200: { type: 'array', items: systemType } },
  },
  'GET /controls/{org}/tags': {
    summary: "The tags on the org's live controls: each key with the values it has",
    responses: { 200: tagOptions },
    inferred: true,
  },
  'GET /repos/{org}/tags': {
    summary: "The tags on the org's repos: each key with the values it has",
    responses: { 200: tagOptions },
    inferred: true,
  },
  'GET /repos/{org}/filter-options': {
    summary: 'What the repo list can be filtered by: the names, providers and tags in use',
    responses: { 200: repoFilterOptions },
    inferred: true,
  },
  'GET /controls/{org}/{identifier}/versions': {
    summary: "A control's versions, oldest first (those made before versions were kept are not listed)",
    responses: { 200: { type: 'array', items: controlVersion } },
    inferred: true,
  },
  'GET /controls/{org}/{identifier}/versions/{version_number}': {
    summary: 'A control as one of its versions read',
    responses: { 200: controlVersion },
    inferred: true,
  },
  'GET /controls/{org}/{identifier}/decisions': {
    summary: 'The decisions on a control, newest first, paged',
    responses: { 200: linkedDataPage(listedDecision) },
    inferred: true,
  },
  'GET /controls/{org}/{identifier}/coverage': {
    summary:
      "Where a control is asked for (policies, environments) and how the artifacts running there stand, by each environment's latest snapshot",
    responses: { 200: controlCoverage },
    inferred: true,
  },
  'GET /deployments/{org}': {
    summary:
      "The org's deployments (an artifact starting to run in a physical environment), newest first, paged; by environment, flow or time",
    responses: { 200: linkedDataPage(deployment) },
    inferred: true,
  },
  'GET /deployments/{org}/{env_name}/{fingerprint}': {
    summary: 'The latest deployment of an artifact (a fingerprint or a prefix of one) into an environment',
    responses: { 200: deployment },
    inferred: true,
  },
  'GET /environments/{org}/{env_name}/deployments': {
    summary: "An environment's deployments, newest first, paged",
    responses: { 200: linkedDataPage(deployment) },
    inferred: true,
  },
  'GET /environments/{org}/{env_name}/deployment_frequency': {
    summary: "How often artifacts started to run in an environment: a window's deployments by day or week",
    responses: { 200: deploymentFrequency },
    inferred: true,
  },
  'GET /repos/{org}/{repo}/deployments': {
    summary: "The deployments of a repo's artifacts, newest first, paged",
    responses: { 200: linkedDataPage(deployment) },
    inferred: true,
  },
  'GET /repos/{org}/{repo}/deployment-statistics': {
    summary: "How many times a repo's artifacts were deployed, in all and in each environment, in a window",
    responses: { 200: repoDeploymentStatistics },
    inferred: true,
  },
  'GET /repos/{org}/live-artifacts/{repo_name}': {
    summary: "The repo's artifacts running now, in each environment's latest snapshot",
    responses: { 200: { type: 'array', items: liveArtifact } },
    inferred: true,
  },
  'GET /builds/{org}': {
    summary: "The org's builds (artifacts reported into its live flows), newest first, paged; of a flow or a repo",
    responses: { 200: linkedDataPage(orPlaceholder(build)) },
    inferred: true,
  },
  'GET /builds/{org}/statistics': {
    summary: "How many builds the org's live flows had in a window, in all and per flow, by their trail's compliance",
    responses: { 200: buildStatistics },
    inferred: true,
  },
  'GET /organizations/{org}': {
    summary: 'An organization: its name, when it was made and the features it has',
    responses: { 200: organization },
    inferred: true,
  },
  'PUT /organizations/{org}/environments_notifications/{number}': {
    summary: 'Legacy: replace the environment action of this number (its number kept)',
    responses: { 200: action },
    deprecated: true,
  },
  'GET /artifacts/{org}/{flow_name}/{fingerprint}/audit_package': {
    summary:
      "Download an artifact's audit package: artifact.json, attestations.json (those about the artifact in its trail) and their evidence files, as .tgz",
    responses: {
      200: {
        description: 'The file itself.',
        content: { 'application/gzip': { schema: { type: 'string', format: 'binary' } } },
      },
    },
  },
};
