// Service accounts, API keys, repos and user settings (reference §2.14, §2.16, §2.18).
import { anyObject, boolean, nullableNumber, nullableString, number, string, stringList } from './values.ts';

export const serviceAccount = {
  title: 'ServiceAccount',
  type: 'object',
  properties: {
    name: string,
    display_name: string,
    privilege: string,
    creating_user_id: string,
    description: nullableString,
    created_at: number,
    last_modified_at: number,
  },
  required: ['name', 'privilege', 'created_at'],
  additionalProperties: false,
} as const;

const apiKeyProperties = {
  id: string,
  description: nullableString,
  created_at: number,
  expires_at: nullableNumber,
  revoked: boolean,
  revoked_at: nullableNumber,
} as const;

export const apiKey = {
  title: 'ApiKey',
  type: 'object',
  properties: apiKeyProperties,
  required: ['id', 'created_at', 'revoked'],
  additionalProperties: false,
} as const;

/** A new or rotated key: the only time the secret itself is shown. */
export const issuedApiKey = {
  title: 'IssuedApiKey',
  type: 'object',
  properties: { ...apiKeyProperties, key: string },
  required: ['id', 'created_at', 'revoked', 'key'],
  additionalProperties: false,
} as const;

export const repo = {
  title: 'Repo',
  type: 'object',
  properties: {
    id: nullableString,
    name: string,
    url: nullableString,
    provider: nullableString,
    description: nullableString,
    namespace_path: stringList,
    additional_info: anyObject,
    tags: anyObject,
  },
  required: ['id', 'name', 'tags'],
  additionalProperties: false,
} as const;

export const defaultOrg = {
  type: 'object',
  properties: { default_org_name: nullableString },
  required: ['default_org_name'],
  additionalProperties: false,
} as const;

export const membershipEvent = {
  title: 'MembershipEvent',
  type: 'object',
  properties: {
    type: {
      type: 'string',
      enum: [
        'service_account_created',
        'service_account_updated',
        'service_account_deleted',
        'api_key_created',
        'api_key_revoked',
      ],
    },
    timestamp: number,
    user: string,
    service_account: string,
    api_key_id: nullableString,
    role: { ...nullableString, description: "The account's privilege once the event happened." },
    source: { ...string, description: 'How the change was made: `api`.' },
    data: anyObject,
  },
  required: ['type', 'timestamp', 'user', 'service_account', 'api_key_id', 'role', 'source', 'data'],
  additionalProperties: false,
} as const;
