// Who may do what (reference §1.10), as data: what each role may do, and what each operation of the
// API needs. The auth hook (http/auth.ts) checks every request against OPERATIONS before its body
// is read; the service-account service applies `reaches` to the account an operation acts on and
// to a privilege it grants, inside the transaction that reads the account. A route without an
// entry here keeps the server from starting; test/security/roles.test.ts asks every operation of
// openapi.json with a key of every role and compares the answers with this table.
import type { Role } from '../principal.ts';

/** The roles, weakest first: a role reaches the roles at or before its place. */
export const ROLES: readonly Role[] = ['reader', 'snapshotter', 'member', 'admin'];

/** Whether `role` is at least as strong as `privilege`: it may manage an account of that privilege, or grant it. */
export function reaches(role: Role, privilege: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(privilege);
}

/**
 * What an operation needs:
 * - read: read the org's data, or preview a change without storing it;
 * - settings: the caller's own settings (every key has them);
 * - report: create environments and report what runs in them;
 * - write: create and change the org's data (flows, trails, attestations, policies, ...);
 * - accounts: service accounts and their keys, only up to the caller's own role (`account`, `grants`).
 */
export type Capability = 'read' | 'settings' | 'report' | 'write' | 'accounts';

export const CAPABILITIES: Readonly<Record<Role, readonly Capability[]>> = {
  reader: ['read', 'settings'],
  snapshotter: ['read', 'settings', 'report', 'accounts'],
  member: ['read', 'settings', 'report', 'write', 'accounts'],
  // An admin differs from a member in the accounts it reaches: admin accounts and their keys.
  admin: ['read', 'settings', 'report', 'write', 'accounts'],
};

export interface OperationRule {
  needs: Capability;
  /** Acts on the service account named `{name}`: the caller's role must reach the account's privilege. */
  account?: true;
  /** Grants the body's `privilege` to an account: the caller's role must reach it. */
  grants?: true;
}

const read: OperationRule = { needs: 'read' };
const write: OperationRule = { needs: 'write' };
const report: OperationRule = { needs: 'report' };
const accounts: OperationRule = { needs: 'accounts' };
const onAccount: OperationRule = { needs: 'accounts', account: true };

/** Every operation under /api/v2, as `METHOD /path` with the path as openapi.json writes it. */
export const OPERATIONS: Readonly<Record<string, OperationRule>> = {
  'GET /flows/{org}': read,
  'GET /flows/{org}/{flow}': read,
  'PUT /flows/{org}': write,
  'PUT /flows/{org}/template_file': write,
  'PUT /flows/{org}/{flow}/archive': write,
  'PUT /flows/{org}/{flow}/rename': write,
  'POST /flows/{org}/{flow}/template-impact': read,

  'GET /trails/{org}': read,
  'GET /trails/{org}/{flow}': read,
  'GET /trails/{org}/{flow}/{trail}': read,
  'GET /trails/{org}/{flow}/{trail}/audit_package': read,
  'GET /trails/{org}/{flow}/{trail}/audit_pdf': read,
  'PUT /trails/{org}/{flow}': write,

  'GET /attestations/{org}': read,
  'GET /attestations/{org}/{flow}': read,
  'GET /attestations/{org}/list_attestations_for_criteria': read,
  'GET /attestations/system-attestation-types': read,
  'GET /attestations/{org}/{flow}/trail/{trail}/{name}': read,
  'GET /attestations/{org}/{flow}/artifact/{fingerprint}/{name}': read,
  'GET /attestations/{org}/{flow}/trail/{trail}/attestation/{id}/evidence': read,
  'POST /attestations/{org}/{flow}/trail/{trail}/generic': write,
  'POST /attestations/{org}/{flow}/trail/{trail}/junit': write,
  'POST /attestations/{org}/{flow}/trail/{trail}/snyk': write,
  'POST /attestations/{org}/{flow}/trail/{trail}/jira': write,
  'POST /attestations/{org}/{flow}/trail/{trail}/pull_request': write,
  'POST /attestations/{org}/{flow}/trail/{trail}/custom': write,
  'POST /attestations/{org}/{flow}/trail/{trail}/system': write,
  'POST /attestations/{org}/{flow}/trail/{trail}/scan': write,
  'POST /attestations/{org}/{flow}/trail/{trail}/override': write,
  // Undocumented: answers the attestation types that do not exist.
  'POST /attestations/{org}/{flow}/trail/{trail}/{kind}': write,

  'GET /artifacts/{org}': read,
  'GET /artifacts/{org}/{flow}/fingerprint/{fingerprint}': read,
  'GET /artifacts/{org}/{flow}/commit_sha/{sha}': read,
  'GET /artifacts/{org}/{flow}/{fingerprint}/latest_commit': read,
  'GET /artifacts/{org}/{flow_name}/{fingerprint}/audit_package': read,
  'GET /builds/{org}': read,
  'GET /builds/{org}/statistics': read,
  'POST /artifacts/{org}/{flow}': write,
  'GET /asserts/{org}/fingerprint/{fingerprint}': read,
  'GET /search/{org}/sha/{value}': read,
  'GET /repos/{org}': read,
  'GET /repos/{org}/{name}': read,
  'GET /repos/{org}/tags': read,
  'GET /repos/{org}/filter-options': read,
  'GET /repos/{org}/{repo}/deployments': read,
  'GET /repos/{org}/{repo}/deployment-statistics': read,
  'GET /repos/{org}/live-artifacts/{repo_name}': read,
  // Undocumented: a repo name with its slashes raw in the path (`/repos/acme/owner/name`).
  'GET /repos/{org}/*': read,

  'GET /environments/{org}': read,
  'GET /environments/{org}/{env}': read,
  'GET /environments/{org}/{env}/events': read,
  'GET /environments/{org}/{env}/auditlog': read,
  'GET /environments/{org}/{env_name}/deployments': read,
  'GET /environments/{org}/{env_name}/deployment_frequency': read,
  'GET /deployments/{org}': read,
  'GET /deployments/{org}/{env_name}/{fingerprint}': read,
  'GET /env-diff/{org}': read,
  'PUT /environments/{org}': report,
  'PATCH /environments/{org}/{env}': write,
  'PUT /environments/{org}/{env}/archive': write,
  'PUT /environments/{org}/{env}/rename': write,
  'PUT /environments/{org}/{env}/join': write,
  'POST /environments/{org}/{env}/policies': write,
  'DELETE /environments/{org}/{env}/policies': write,
  'POST /environments/{org}/{env}/policy-dry-run': read,
  'PUT /environments/{org}/{env}/report/K8S': report,
  'PUT /environments/{org}/{env}/report/ECS': report,
  'PUT /environments/{org}/{env}/report/S3': report,
  'PUT /environments/{org}/{env}/report/lambda': report,
  'PUT /environments/{org}/{env}/report/server': report,
  'PUT /environments/{org}/{env}/report/docker': report,
  'PUT /environments/{org}/{env}/report/azure-apps': report,
  'PUT /environments/{org}/{env}/report/cloud-run': report,
  // Undocumented: answers the report types that do not exist.
  'PUT /environments/{org}/{env}/report/{type}': report,
  'GET /snapshots/{org}/{env}': read,
  'GET /snapshots/{org}/{env}/{expr}': read,
  'GET /allowlists/{org}': read,
  'PUT /allowlists/{org}/{env}': write,
  'PATCH /tags/{org}/{resource_type}/{id}': write,
  // Undocumented: a repo addressed by its name with the slashes raw (`/tags/acme/repo/owner/name`).
  'PATCH /tags/{org}/{resource_type}/*': write,

  'GET /policies/{org}': read,
  'GET /policies/{org}/{name}': read,
  'PUT /policies/{org}': write,
  'PUT /policies/{org}/{name}/archive': write,
  'PUT /policies/{org}/{name}/unarchive': write,

  'GET /controls/{org}': read,
  'GET /controls/{org}/{identifier}': read,
  'GET /controls/{org}/tags': read,
  'GET /controls/{org}/{identifier}/versions': read,
  'GET /controls/{org}/{identifier}/versions/{version_number}': read,
  'GET /controls/{org}/{identifier}/decisions': read,
  'GET /controls/{org}/{identifier}/coverage': read,
  'GET /controls/{org}/{identifier}/decisions/{decision_id}': read,
  'POST /controls/{org}': write,
  'PUT /controls/{org}/{identifier}': write,
  'POST /controls/{org}/{identifier}/archive': write,
  'POST /controls/{org}/{identifier}/unarchive': write,

  'GET /actions/{org}': read,
  'GET /actions/{org}/{number}': read,
  'PUT /actions/{org}': write,
  'PUT /actions/{org}/environments': write,
  'PUT /actions/{org}/flows': write,
  'DELETE /actions/{org}/{number}': write,
  'GET /organizations/{org}/environments_notifications': read,
  'GET /organizations/{org}/environments_notifications/{number}': read,
  'PUT /organizations/{org}/environments_notifications': write,
  'DELETE /organizations/{org}/environments_notifications/{number}': write,
  'PUT /organizations/{org}/environments_notifications/{number}': write,
  'GET /organizations/{org}': read,

  'GET /custom-attestation-types/{org}': read,
  'GET /custom-attestation-types/{org}/{name}': read,
  'POST /custom-attestation-types/{org}': write,
  'PUT /custom-attestation-types/{org}/{name}/archive': write,
  'GET /system-attestation-types/{org}': read,

  'GET /service-accounts/{org}': accounts,
  'GET /service-accounts/{org}/{name}': accounts,
  'GET /membership-audit-log/{org}': accounts,
  'POST /service-accounts/{org}': { needs: 'accounts', grants: true },
  'PATCH /service-accounts/{org}/{name}': { needs: 'accounts', account: true, grants: true },
  'DELETE /service-accounts/{org}/{name}': onAccount,
  'GET /service-accounts/{org}/{name}/api-keys': onAccount,
  'POST /service-accounts/{org}/{name}/api-keys': onAccount,
  'GET /service-accounts/{org}/{name}/api-keys/{key_id}': onAccount,
  'DELETE /service-accounts/{org}/{name}/api-keys/{key_id}': onAccount,
  'POST /service-accounts/{org}/{name}/api-keys/{key_id}/rotate': onAccount,

  'GET /user/default-org': { needs: 'settings' },
  'PUT /user/{name}': { needs: 'settings' },
};

/** The rule of a route, from fastify's method and URL (`/api/v2/flows/:org`); HEAD is GET's. */
export function operationRuleOf(method: string, url: string): OperationRule | undefined {
  const path = url.replace(/^\/api\/v2(?=\/)/, '').replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
  return OPERATIONS[`${method === 'HEAD' ? 'GET' : method} ${path}`];
}

/** Whether `role` may use an operation that needs `capability`. */
export function mayUse(role: Role, capability: Capability): boolean {
  return CAPABILITIES[role].includes(capability);
}
