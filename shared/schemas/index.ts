// The schema registry: every document and request body the product accepts, by name, each
// compiled once by one ajv instance (so `$ref`s between documents resolve).
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import azureAppsReport from './azure-apps-report.json' with { type: 'json' };
import cloudRunReport from './cloud-run-report.json' with { type: 'json' };
import dockerReport from './docker-report.json' with { type: 'json' };
import ecsReport from './ecs-report.json' with { type: 'json' };
import envPolicy from './env-policy.json' with { type: 'json' };
import flowTemplate from './flow-template.json' with { type: 'json' };
import k8sReport from './k8s-report.json' with { type: 'json' };
import lambdaReport from './lambda-report.json' with { type: 'json' };
import s3Report from './s3-report.json' with { type: 'json' };
import scanAttestation from './scan-attestation.json' with { type: 'json' };
import serverReport from './server-report.json' with { type: 'json' };

export const schemas = {
  'flow-template': flowTemplate,
  'env-policy': envPolicy,
  'scan-attestation': scanAttestation,
  'k8s-report': k8sReport,
  'ecs-report': ecsReport,
  'server-report': serverReport,
  'docker-report': dockerReport,
  's3-report': s3Report,
  'lambda-report': lambdaReport,
  'azure-apps-report': azureAppsReport,
  'cloud-run-report': cloudRunReport,
} as const;

export type SchemaName = keyof typeof schemas;

export const schemaNames = Object.keys(schemas) as SchemaName[];

export function isSchemaName(name: string): name is SchemaName {
  return Object.hasOwn(schemas, name);
}

const ajv = new Ajv2020({ allErrors: true, verbose: true, allowUnionTypes: true, strict: true });
addFormats(ajv);
for (const schema of Object.values(schemas)) ajv.addSchema(schema);

const compiled = new Map<SchemaName, ValidateFunction>();

/** The compiled validator of a schema, compiled on first use and kept. */
export function validatorFor(name: SchemaName): ValidateFunction {
  let validate = compiled.get(name);
  if (validate === undefined) {
    validate = ajv.getSchema(schemas[name].$id) as ValidateFunction;
    compiled.set(name, validate);
  }
  return validate;
}
