import { NAME_PATTERN } from '../names.ts';

export default {
  $id: 'https://compliance-evidence.dev/schemas/trail-create/v1',
  title: 'BeginTrailInput',
  description: 'The `data_json` part of PUT /trails/{org}/{flow}: begins a trail, or updates it when it exists.',
  type: 'object',
  properties: {
    name: {
      description:
        "The trail's name, e.g. the commit SHA: the name pattern of flows and artifacts, at most 255 characters.",
      type: 'string',
      pattern: NAME_PATTERN,
      maxLength: 255,
    },
    description: {
      description: 'What the trail is for.',
      type: ['string', 'null'],
    },
    user_data: {
      description: 'Free-form data kept with the trail.',
      type: ['object', 'array', 'null'],
    },
    git_commit_info: {
      description: 'The commit the trail is about.',
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
      description: 'The repository the trail is about.',
      anyOf: [
        {
          $ref: 'https://compliance-evidence.dev/schemas/common/v1#/$defs/RepoInfoPostInput',
        },
        {
          type: 'null',
        },
      ],
    },
    external_urls: {
      $ref: 'https://compliance-evidence.dev/schemas/common/v1#/$defs/ExternalUrls',
    },
    origin_url: {
      description: 'Where the trail was begun, e.g. the CI job URL.',
      type: ['string', 'null'],
    },
  },
  required: ['name'],
  additionalProperties: false,
} as const;
