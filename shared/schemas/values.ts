// Value sets the API enumerates in more than one place (request bodies and query parameters), written once.

/** An environment's `type` (case-sensitive, reference §2.5); `logical` groups physical environments. */
export const ENVIRONMENT_TYPES = [
  'K8S',
  'ECS',
  'S3',
  'lambda',
  'server',
  'docker',
  'azure-apps',
  'cloud-run',
  'logical',
] as const;

/** A repository host, `repo_info.provider` (the spec's Artifact table). */
export const REPO_PROVIDERS = [
  'github',
  'gitlab',
  'bitbucket',
  'bitbucket_cloud',
  'bitbucket_dc',
  'azure-devops',
  'azure_devops_services',
  'azure_devops_server',
  'circleci',
  'git',
  'subversion',
] as const;
