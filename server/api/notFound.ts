// The API's 404s, each with the hosted service's exact message (reference §1.2 and the sections of
// each resource), written once for whichever layer finds the thing missing: the services' lookups
// (services/lookups.ts), the rules that resolve a name (a custom type's), the access check.
import { notFound, type ApiError } from './errors.ts';

export function orgNotFound(): ApiError {
  return notFound('Organization not found');
}

/**
 * A flow the org has not (or no longer live): every flow lookup answers the long message; the
 * attestation list of a flow (spec endpoint 5) the spec's short one.
 */
export function flowNotFound(orgName: string, flowName: string, wording: 'long' | 'short' = 'long'): ApiError {
  return notFound(
    wording === 'short' ? 'Flow not found' : `Flow named '${flowName}' does not exist for organization '${orgName}'`,
  );
}

export function trailNotFound(orgName: string, flowName: string, trailName: string): ApiError {
  return notFound(`Trail with name '${trailName}' does not exist for Organization '${orgName}' and Flow '${flowName}'`);
}

/** An artifact by fingerprint, in a flow, or anywhere in the org when no flow is named (assert). */
export function artifactNotFound(orgName: string, fingerprint: string, flowName?: string): ApiError {
  return notFound(
    flowName === undefined
      ? `Artifact with fingerprint '${fingerprint}' does not exist in organization '${orgName}'`
      : `Artifact with fingerprint '${fingerprint}' does not exist in flow '${flowName}' belonging to organization '${orgName}'`,
  );
}

/** The artifact an attestation names, not in the attestation's trail (this message's quotes are the service's). */
export function artifactNotInTrail(
  orgName: string,
  flowName: string,
  trailName: string,
  fingerprint: string,
): ApiError {
  return notFound(
    `Artifact with fingerprint ${fingerprint} does not exist in trail "${trailName}" of flow "${flowName}" belonging to organization "${orgName}"`,
  );
}

export function attestationNotFound(trailName: string, id: string): ApiError {
  return notFound(`Attestation '${id}' does not exist in trail '${trailName}'`);
}

export function evidenceNotFound(attestationId: string): ApiError {
  return notFound(`Attestation '${attestationId}' has no evidence`);
}

export function customTypeNotFound(orgName: string, name: string): ApiError {
  return notFound(`Custom attestation type '${name}' does not exist for org '${orgName}'`);
}

export function customTypeVersionNotFound(name: string, version: number | string): ApiError {
  return notFound(`version ${version} does not exist for custom attestation type '${name}'`);
}

/** A version a control never had, or one made before its versions were kept (reference §8.4). */
export function controlVersionNotFound(identifier: string, version: number): ApiError {
  return notFound(`version ${version} does not exist for control '${identifier}'`);
}

/** An artifact that never started to run in an environment (reference §8.4). */
export function deploymentNotFound(fingerprint: string, environmentName: string): ApiError {
  return notFound(
    `Artifact with fingerprint '${fingerprint}' has not been deployed to environment '${environmentName}'`,
  );
}

export function repoNotFound(name: string): ApiError {
  return notFound(`Repo '${name}' not found`);
}

/** A search (spec endpoint 11) that matched no fingerprint and no commit. */
export function noMatches(value: string): ApiError {
  return notFound(`No matches for '${value}'.`);
}

/**
 * An environment that is not there: the long message names it and its org; the short one is what
 * the report, audit-log and snapshot operations answer (spec endpoints 2 and 12).
 */
export function environmentNotFound(org: string, env: string, wording: 'long' | 'short' = 'long'): ApiError {
  return notFound(
    wording === 'short'
      ? 'Environment not found'
      : `Environment named '${env}' does not exist for organization '${org}'`,
  );
}

/**
 * A control by identifier, on every operation of the control itself (get, update, archive,
 * unarchive: reference §8.2 item 8), or the spec's message of a decision's read.
 */
export function controlNotFound(
  orgName: string,
  identifier: string,
  wording: 'control' | 'control or decision' = 'control',
): ApiError {
  if (wording === 'control or decision') return notFound('Control or decision not found');
  return notFound(`Control '${identifier}' does not exist in organization '${orgName}'`);
}

/**
 * A policy by name, wherever one is named (get, archive, unarchive, attach, assert), as clients
 * print it (reference §8.2 item 8, where the hosted service was seen to answer so).
 */
export function policyNotFound(orgName: string, name: string): ApiError {
  return notFound(`Policy '${name}' does not exist in organization '${orgName}'`);
}

export function actionNotFound(orgName: string, number: number): ApiError {
  return notFound(`Action ${number} does not exist in organization '${orgName}'`);
}

export function serviceAccountNotFound(): ApiError {
  return notFound('Service account not found');
}

export function apiKeyNotFound(): ApiError {
  return notFound('API key not found');
}
