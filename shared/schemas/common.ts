import {
  ATTESTATION_NAME_PATTERN,
  CONTROL_IDENTIFIER_PATTERN,
  ENVIRONMENT_NAME_PATTERN,
  FLOW_NAME_PATTERN,
} from '../names.ts';
import { REPO_PROVIDERS } from './values.ts';

export default {
  $id: 'https://compliance-evidence.dev/schemas/common/v1',
  title: 'Shared definitions',
  description: 'Names, patterns and objects that several documents and request bodies share.',
  $defs: {
    FlowName: {
      description: 'A flow name: starts with a letter or digit, then letters, digits, `.`, `-`, `_`, `~`.',
      type: 'string',
      pattern: FLOW_NAME_PATTERN,
    },
    EnvironmentName: {
      description: 'An environment name: starts with a letter or digit, then letters, digits, `.`, `-`, `_`.',
      type: 'string',
      pattern: ENVIRONMENT_NAME_PATTERN,
    },
    AttestationName: {
      description: 'An attestation name: letters, digits, `_`, `,` and `-`.',
      type: 'string',
      pattern: ATTESTATION_NAME_PATTERN,
    },
    Fingerprint: {
      description: "An artifact's SHA-256 fingerprint: 64 lowercase hex characters.",
      type: 'string',
      pattern: '^[a-f0-9]{64}$',
    },
    ControlIdentifier: {
      description: 'A control identifier: letters, digits, `-`, `.`, `_`, `~`; at most 256 characters.',
      type: 'string',
      pattern: CONTROL_IDENTIFIER_PATTERN,
      maxLength: 256,
    },
    GitCommit: {
      description:
        "A commit. Open: the spec lists its fields but not whether others may follow, so extra keys are kept as sent, like the scan payload's other nested objects.",
      type: 'object',
      properties: {
        sha1: {
          description: 'The commit SHA.',
          type: 'string',
        },
        message: {
          description: 'The commit message.',
          type: ['string', 'null'],
        },
        author: {
          description: 'The commit author.',
          type: ['string', 'null'],
        },
        author_username: {
          description: "The author's username on the repository host.",
          type: ['string', 'null'],
        },
        branch: {
          description: 'The branch the commit is on.',
          type: ['string', 'null'],
        },
        timestamp: {
          description: 'Commit time in Unix epoch seconds.',
          type: ['number', 'null'],
        },
        url: {
          description: "The commit's web URL.",
          type: ['string', 'null'],
        },
        parents: {
          description: 'Parent commit SHAs.',
          type: ['array', 'null'],
          items: {
            type: 'string',
          },
        },
        verified: {
          description: "Whether the commit's signature is verified.",
          type: ['boolean', 'null'],
        },
        signature_state: {
          description: 'The signature state reported by the repository host.',
          type: ['string', 'null'],
        },
      },
      required: ['sha1'],
    },
    RepoInfoPostInput: {
      description:
        "A repository. Open: the spec lists its fields but not whether others may follow, so extra keys are kept as sent (the artifact's repo_info shows `vcs_instance` and `short_name` besides them).",
      type: 'object',
      properties: {
        name: {
          description: 'The repository name.',
          type: 'string',
        },
        url: {
          description: 'The repository URL.',
          type: 'string',
        },
        id: {
          description: 'The repository id at its host.',
          type: ['string', 'null'],
        },
        description: {
          description: 'The repository description.',
          type: ['string', 'null'],
        },
        provider: {
          description: 'The repository host.',
          enum: [...REPO_PROVIDERS, null],
        },
        namespace_path: {
          description: 'Groups or namespaces the repository lives in.',
          type: ['array', 'null'],
          items: {
            type: 'string',
          },
        },
        additional_info: {
          description: 'More facts about the repository.',
          type: ['object', 'null'],
        },
      },
      required: ['name', 'url'],
    },
    ExternalAttachmentUrl: {
      description: 'A link to more evidence: a URL, or `{href, fingerprint?}`.',
      anyOf: [
        {
          type: 'string',
        },
        {
          type: 'object',
          properties: {
            href: {
              description: 'The URL.',
              type: 'string',
            },
            fingerprint: {
              description: 'SHA-256 of the linked content.',
              type: 'string',
              pattern: '^[a-f0-9]{64}$',
            },
          },
          required: ['href'],
        },
      ],
    },
    ExternalUrls: {
      description: 'Links to more evidence: label (no `=` or `.`) → URL entry.',
      type: ['object', 'null'],
      propertyNames: {
        pattern: '^[^=.]+$',
      },
      additionalProperties: {
        $ref: '#/$defs/ExternalAttachmentUrl',
      },
    },
    Annotations: {
      description: 'Annotations: key (letters, digits, `_`) → string value.',
      type: ['object', 'null'],
      propertyNames: {
        pattern: '^[A-Za-z0-9_]+$',
      },
      additionalProperties: {
        type: 'string',
      },
    },
  },
} as const;
