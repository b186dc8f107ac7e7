// Operations on service accounts, API keys, repos and user settings (reference §2.14, §2.16, §2.18).
import { apiKey, defaultOrg, issuedApiKey, membershipEvent, repo, serviceAccount } from './accounts.ts';
import { namedPage } from './pagination.ts';
import { messageString, string } from './values.ts';

const deleted = {
  type: 'object',
  properties: { message: string },
  required: ['message'],
  additionalProperties: false,
} as const;

export const accounts = {
  'POST /service-accounts/{org}': { summary: 'Create a service account', responses: { 201: serviceAccount } },
  'GET /service-accounts/{org}': {
    summary: 'List service accounts',
    responses: { 200: { type: 'array', items: serviceAccount } },
  },
  'GET /service-accounts/{org}/{name}': { summary: 'Get a service account', responses: { 200: serviceAccount } },
  'PATCH /service-accounts/{org}/{name}': { summary: 'Update a service account', responses: { 200: serviceAccount } },
  'DELETE /service-accounts/{org}/{name}': { summary: 'Delete a service account', responses: { 200: deleted } },
  'POST /service-accounts/{org}/{name}/api-keys': { summary: 'Issue an API key', responses: { 201: issuedApiKey } },
  'GET /service-accounts/{org}/{name}/api-keys': {
    summary: "List a service account's API keys",
    responses: { 200: { type: 'array', items: apiKey } },
  },
  'GET /service-accounts/{org}/{name}/api-keys/{key_id}': { summary: 'Get an API key', responses: { 200: apiKey } },
  'DELETE /service-accounts/{org}/{name}/api-keys/{key_id}': {
    summary: 'Revoke an API key',
    responses: { 200: deleted },
  },
  'POST /service-accounts/{org}/{name}/api-keys/{key_id}/rotate': {
    summary: 'Rotate an API key',
    responses: { 201: issuedApiKey },
    optionalBody: true,
  },
  'GET /membership-audit-log/{org}': {
    summary: 'The membership audit log: service accounts and keys given and taken (reference §2.18)',
    responses: { 200: { type: 'array', items: membershipEvent } },
  },
  'GET /repos/{org}': { summary: 'List repos', responses: { 200: namedPage('repos', repo) } },
  'GET /repos/{org}/{name}': { summary: 'Get a repo', responses: { 200: repo } },
  'GET /repos/{org}/*': { summary: 'Get a repo whose name has slashes, raw in the path', responses: { 200: repo } },
  'GET /user/default-org': { summary: "The caller's default organization", responses: { 200: defaultOrg } },
  'PUT /user/{name}': { summary: "Set the caller's default organization", responses: { 200: messageString } },
};
