// The schema registry: every document and request body the product accepts, by name, each
// compiled once by one ajv instance (so `$ref`s between them resolve). Documents carry
// `$schema` 2020-12; request bodies and the shared definitions use only keywords that draft-07
// and 2020-12 read alike, so fastify's default ajv accepts them as route schemas too.
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FromSchema } from 'json-schema-to-ts';
import actionCreate from './action-create.ts';
import allowlistCreate from './allowlist-create.ts';
import apiKeyCreate from './api-key-create.ts';
import apiKeyRotate from './api-key-rotate.ts';
import artifactCreate from './artifact-create.ts';
import attestation from './attestation.json' with { type: 'json' };
import azureAppsReport from './azure-apps-report.json' with { type: 'json' };
import cloudRunReport from './cloud-run-report.json' with { type: 'json' };
import common from './common.ts';
import controlCreate from './control-create.ts';
import controlUpdate from './control-update.ts';
import customTypeCreate from './custom-type-create.ts';
import dockerReport from './docker-report.json' with { type: 'json' };
import ecsReport from './ecs-report.json' with { type: 'json' };
import envPolicy from './env-policy.json' with { type: 'json' };
import environmentActionCreate from './environment-action-create.ts';
import environmentCreate from './environment-create.ts';
import environmentJoin from './environment-join.ts';
import environmentPolicies from './environment-policies.ts';
import environmentRename from './environment-rename.ts';
import environmentUpdate from './environment-update.ts';
import flowActionCreate from './flow-action-create.ts';
import flowCreate from './flow-create.ts';
import flowRename from './flow-rename.ts';
import flowTemplate from './flow-template.json' with { type: 'json' };
import flowTemplateCreate from './flow-template-create.ts';
import k8sReport from './k8s-report.json' with { type: 'json' };
import lambdaReport from './lambda-report.json' with { type: 'json' };
import policyCreate from './policy-create.ts';
import s3Report from './s3-report.json' with { type: 'json' };
import scanAttestation from './scan-attestation.json' with { type: 'json' };
import serverReport from './server-report.json' with { type: 'json' };
import serviceAccountCreate from './service-account-create.ts';
import serviceAccountUpdate from './service-account-update.ts';
import tagsUpdate from './tags-update.ts';
import trailCreate from './trail-create.ts';

/** Documents users edit or send whole (templates, policies, payloads, reports) and shared definitions. */
const documentSchemas = {
  common: common,
  'flow-template': flowTemplate,
  'env-policy': envPolicy,
  'scan-attestation': scanAttestation,
  attestation,
  'k8s-report': k8sReport,
  'ecs-report': ecsReport,
  'server-report': serverReport,
  'docker-report': dockerReport,
  's3-report': s3Report,
  'lambda-report': lambdaReport,
  'azure-apps-report': azureAppsReport,
  'cloud-run-report': cloudRunReport,
} as const;

/** Request bodies of the API (JSON bodies and JSON multipart parts). */
export const bodySchemas = {
  'flow-template-create': flowTemplateCreate,
  'flow-create': flowCreate,
  'flow-rename': flowRename,
  'trail-create': trailCreate,
  'artifact-create': artifactCreate,
  'environment-create': environmentCreate,
  'environment-update': environmentUpdate,
  'environment-rename': environmentRename,
  'environment-join': environmentJoin,
  'environment-policies': environmentPolicies,
  'allowlist-create': allowlistCreate,
  'policy-create': policyCreate,
  'control-create': controlCreate,
  'control-update': controlUpdate,
  'action-create': actionCreate,
  'environment-action-create': environmentActionCreate,
  'flow-action-create': flowActionCreate,
  'service-account-create': serviceAccountCreate,
  'service-account-update': serviceAccountUpdate,
  'api-key-create': apiKeyCreate,
  'api-key-rotate': apiKeyRotate,
  'tags-update': tagsUpdate,
  'custom-type-create': customTypeCreate,
} as const;

export const schemas = { ...documentSchemas, ...bodySchemas } as const;

export type SchemaName = keyof typeof schemas;
export type BodySchemaName = keyof typeof bodySchemas;

/** A request body's TypeScript type, derived from its schema (json-schema-to-ts) instead of restated. */
export type BodyOf<N extends BodySchemaName> = FromSchema<(typeof bodySchemas)[N], { references: [typeof common] }>;

export const schemaNames = Object.keys(schemas) as SchemaName[];
export const bodySchemaNames = Object.keys(bodySchemas) as BodySchemaName[];

const ajv = new Ajv2020({ allErrors: true, verbose: true, allowUnionTypes: true, strict: true });
addFormats(ajv);
for (const schema of Object.values(schemas)) ajv.addSchema(schema);

/** The compiled validator of a schema: ajv compiles an added schema on its first getSchema and keeps it. */
export function validatorFor(name: SchemaName): ValidateFunction {
  return ajv.getSchema(schemas[name].$id) as ValidateFunction;
}
