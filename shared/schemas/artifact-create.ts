export default {
  $id: 'https://compliance-evidence.dev/schemas/artifact-create/v1',
  title: 'ArtifactPostInput',
  description:
    'POST /artifacts/{org}/{flow}: attests an artifact into a trail (or, in the legacy form without `trail_name`, into the trail of its commit).',
  type: 'object',
  properties: {
    fingerprint: {
      $ref: 'https://compliance-evidence.dev/schemas/common/v1#/$defs/Fingerprint',
      description: "The artifact's SHA-256 fingerprint.",
    },
    filename: {
      description: "The artifact's display name or file name (may be empty, as the hosted service accepts it).",
      type: 'string',
    },
    description: {
      description: 'What the artifact is.',
      type: ['string', 'null'],
    },
    is_compliant: {
      description:
        "The artifact's own compliance as the reporter saw it; kept, the trail's evaluation decides its state.",
      type: ['boolean', 'null'],
    },
    template: {
      description: 'Legacy form: the template the artifact was reported under; kept as sent.',
      type: ['array', 'object', 'null'],
    },
    user_data: {
      description: 'Free-form data kept with the artifact.',
      type: ['object', 'array', 'null'],
    },
    git_commit: {
      description: 'The commit SHA the artifact was built from.',
      type: ['string', 'null'],
    },
    git_commit_info: {
      description: 'The commit the artifact was built from.',
      anyOf: [
        {
          $ref: 'https://compliance-evidence.dev/schemas/common/v1#/$defs/GitCommit',
        },
        {
          type: 'null',
        },
      ],
    },
    repo_info: {
      description: 'The repository the artifact was built from.',
      anyOf: [
        {
          $ref: 'https://compliance-evidence.dev/schemas/common/v1#/$defs/RepoInfoPostInput',
        },
        {
          type: 'null',
        },
      ],
    },
    build_url: {
      description: 'The CI build that made the artifact.',
      type: ['string', 'null'],
    },
    commit_url: {
      description: "The commit's web URL.",
      type: ['string', 'null'],
    },
    repo_url: {
      description: "The repository's web URL.",
      type: ['string', 'null'],
    },
    template_reference_name: {
      description: "The artifact's name in the trail's template.",
      type: ['string', 'null'],
    },
    trail_name: {
      description: 'The trail the artifact belongs to.',
      type: ['string', 'null'],
    },
    external_urls: {
      $ref: 'https://compliance-evidence.dev/schemas/common/v1#/$defs/ExternalUrls',
    },
    annotations: {
      $ref: 'https://compliance-evidence.dev/schemas/common/v1#/$defs/Annotations',
    },
    commits_list: {
      description: 'Legacy form: commits since the previous artifact.',
      type: ['array', 'null'],
    },
  },
  required: ['fingerprint', 'filename'],
  additionalProperties: false,
} as const;
