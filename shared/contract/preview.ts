// The project's read-only preview operations (an extension of the API v2, not in the hosted
// service): what an edited flow template would do to the flow's trails, and what an edited policy
// would say about an environment's latest snapshot. Request and response schemas, written once for
// the server's routes, its OpenAPI document, the tests and the language server.
import { boolean, integer, nullableBoolean, nullableNumber, nullableString, string } from './values.ts';

const state = { type: 'string', enum: ['COMPLIANT', 'INCOMPLETE', 'NON-COMPLIANT'] } as const;

export const templateImpactInput = {
  title: 'TemplateImpactInput',
  type: 'object',
  properties: {
    template: { type: 'string', description: 'The flow template text (YAML) to evaluate; nothing is stored.' },
  },
  required: ['template'],
  additionalProperties: false,
} as const;

/** How many trails (or artifacts) one preview answer lists at most (the counts always cover every one). */
export const IMPACT_LIST_LIMIT = 1000;

/**
 * How many slots of one trail, or failing rules of one artifact, a preview answer lists at most;
 * `changed_slots_total` and `failing_rules_total` count them all. With the list limit, an answer
 * stays a few MB at most whatever the template, policy or flow.
 */
export const LISTED_DETAILS = 20;

const listLimit = (what: string) =>
  ({
    type: 'integer',
    minimum: 0,
    maximum: IMPACT_LIST_LIMIT,
    default: 100,
    description: `Most ${what} listed.`,
  }) as const;

export const templateImpactQuery = {
  type: 'object',
  properties: { limit: listLimit('changed trails') },
  additionalProperties: false,
} as const;

export const policyDryRunQuery = {
  type: 'object',
  properties: { limit: listLimit('artifacts (the non-compliant first)') },
  additionalProperties: false,
} as const;

export const slotChange = {
  type: 'object',
  properties: {
    artifact: {
      ...nullableString,
      description: 'The template artifact of the slot; null for trail-level attestations.',
    },
    attestation: { ...nullableString, description: 'The attestation slot; null for the artifact slot itself.' },
    before: {
      ...nullableString,
      description: 'MISSING, COMPLIANT or NON-COMPLIANT (with "(unexpected)" outside the template); null when absent.',
    },
    after: nullableString,
  },
  required: ['artifact', 'attestation', 'before', 'after'],
  additionalProperties: false,
} as const;

export const templateImpact = {
  title: 'TemplateImpact',
  type: 'object',
  properties: {
    flow: string,
    trails: { ...integer, description: 'Every trail of the flow, all evaluated.' },
    transitions: {
      type: 'array',
      description:
        'How many trails go from each verdict (under the template they were begun with) to each verdict (under the edited template).',
      items: {
        type: 'object',
        properties: { before: state, after: state, count: integer },
        required: ['before', 'after', 'count'],
        additionalProperties: false,
      },
    },
    changed_total: { ...integer, description: 'Trails whose verdict or any slot changes.' },
    changed: {
      type: 'array',
      description: 'The changed trails, newest first, at most `limit`.',
      items: {
        type: 'object',
        properties: {
          trail: string,
          before: state,
          after: state,
          changed_slots: {
            type: 'array',
            items: slotChange,
            description: `The first ${LISTED_DETAILS} slots that change, in the order the edited template lists them.`,
          },
          changed_slots_total: { ...integer, description: 'Every slot of the trail that changes.' },
        },
        required: ['trail', 'before', 'after', 'changed_slots', 'changed_slots_total'],
        additionalProperties: false,
      },
    },
  },
  required: ['flow', 'trails', 'transitions', 'changed_total', 'changed'],
  additionalProperties: false,
} as const;

export const policyDryRunInput = {
  title: 'PolicyDryRunInput',
  type: 'object',
  properties: {
    policy: { type: 'string', description: 'The environment policy text (YAML) to evaluate; nothing is stored.' },
  },
  required: ['policy'],
  additionalProperties: false,
} as const;

export const failingRule = {
  type: 'object',
  properties: {
    path: {
      type: 'array',
      items: { type: ['string', 'integer'] },
      description: 'Where the rule is in the policy document, e.g. ["artifacts", "attestations", 0].',
    },
    type: { type: 'string', enum: ['provenance', 'trail-compliance', 'attestation'] },
    reason: string,
  },
  required: ['path', 'type', 'reason'],
  additionalProperties: false,
} as const;

export const policyDryRun = {
  title: 'PolicyDryRun',
  type: 'object',
  properties: {
    environment: string,
    snapshot_index: {
      ...nullableNumber,
      description: 'The latest snapshot evaluated; null when the environment has none.',
    },
    compliant: {
      ...integer,
      description: 'Running artifacts the policy would find compliant (allowed ones included).',
    },
    non_compliant: integer,
    artifacts: {
      type: 'array',
      description: 'The running artifacts, the non-compliant first, at most `limit`.',
      items: {
        type: 'object',
        properties: {
          name: string,
          fingerprint: string,
          compliant: boolean,
          allowed: { ...boolean, description: 'On the environment allowlist: compliant whatever the rules say.' },
          recorded_compliant: {
            ...nullableBoolean,
            description: 'As the snapshot recorded it under the attached policies.',
          },
          failing_rules: {
            type: 'array',
            items: failingRule,
            description: `The first ${LISTED_DETAILS} rules the artifact fails, in the policy's order.`,
          },
          failing_rules_total: { ...integer, description: 'Every rule the artifact fails.' },
        },
        required: [
          'name',
          'fingerprint',
          'compliant',
          'allowed',
          'recorded_compliant',
          'failing_rules',
          'failing_rules_total',
        ],
        additionalProperties: false,
      },
    },
  },
  required: ['environment', 'snapshot_index', 'compliant', 'non_compliant', 'artifacts'],
  additionalProperties: false,
} as const;
