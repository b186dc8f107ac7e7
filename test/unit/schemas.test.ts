import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import { checkBody } from '../../shared/schemas/checkBody.ts';
import { bodySchemaNames, schemaNames, schemas, validatorFor } from '../../shared/schemas/index.ts';
import { fieldPath } from '../../shared/findings.ts';
import { checkK8sReport, checkReport, reportTypes } from '../../shared/reports/check.ts';

/** Every property schema reachable without following `$ref`, with its path for messages. */
function propertiesOf(
  node: unknown,
  path: string,
  out: [string, Record<string, unknown>][] = [],
): [string, Record<string, unknown>][] {
  if (node === null || typeof node !== 'object') return out;
  const schema = node as Record<string, unknown>;
  for (const [key, child] of Object.entries((schema.properties as Record<string, unknown>) ?? {})) {
    out.push([`${path}.${key}`, child as Record<string, unknown>]);
    propertiesOf(child, `${path}.${key}`, out);
  }
  for (const key of ['items', 'additionalProperties']) propertiesOf(schema[key], `${path}[${key}]`, out);
  for (const [key, child] of Object.entries((schema.$defs as Record<string, unknown>) ?? {}))
    propertiesOf(child, `${path}#${key}`, out);
  for (const branch of (schema.anyOf as unknown[]) ?? []) propertiesOf(branch, path, out);
  return out;
}

const errorsOf = (issues: { path: (string | number)[]; message: string }[]) =>
  Object.fromEntries(issues.map((issue) => [fieldPath(issue.path), issue.message]));

describe('schemas', () => {
  it('every schema compiles, has a stable neutral $id and describes every property (hover text)', () => {
    const ids = new Set<string>();
    for (const name of schemaNames) {
      const schema = schemas[name] as Record<string, unknown>;
      assert.match(String(schema.$id), /^https:\/\/compliance-evidence\.dev\/schemas\/[a-z0-9/-]+\/v1$/);
      assert.ok(!ids.has(String(schema.$id)), `duplicate $id ${String(schema.$id)}`);
      ids.add(String(schema.$id));
      assert.equal(typeof validatorFor(name), 'function');
      for (const [path, property] of propertiesOf(schema, name)) {
        assert.ok(
          typeof property.description === 'string' || typeof property.$ref === 'string',
          `${path} has no description`,
        );
      }
    }
  });

  it('request bodies are plain schemas (no $schema) a draft-07 ajv also reads', () => {
    for (const name of bodySchemaNames)
      assert.equal((schemas[name] as Record<string, unknown>).$schema, undefined, name);
    assert.equal((schemas.common as Record<string, unknown>).$schema, undefined);
    const draft07 = new Ajv({ allErrors: true, allowUnionTypes: true });
    draft07.addSchema(schemas.common);
    for (const name of bodySchemaNames) draft07.addSchema(schemas[name]);
    for (const name of bodySchemaNames) assert.equal(typeof draft07.getSchema(schemas[name].$id), 'function', name);
  });

  it('names the OpenAPI components the official client checks', () => {
    assert.equal(schemas['control-create'].title, 'ControlPostInput');
    assert.deepEqual(Object.keys(schemas['control-create'].properties).sort(), [
      'description',
      'identifier',
      'links',
      'name',
    ]);
    assert.equal(schemas['environment-create'].title, 'CreateEnvironmentPutInput');
    assert.deepEqual(Object.keys(schemas['environment-create'].properties).sort(), [
      'description',
      'include_scaling',
      'included_environments',
      'name',
      'policies',
      'require_provenance',
      'type',
    ]);
  });
});

describe('checkBody', () => {
  it('words errors as the hosted service does, keyed by field path', () => {
    assert.deepEqual(errorsOf(checkBody('control-create', { identifier: 'bad identifier', name: 'n' })), {
      identifier: "String should match pattern '^[a-zA-Z0-9\\-._~]+$'",
    });
    assert.deepEqual(errorsOf(checkBody('flow-rename', { new_name: 'new illegal name' })), {
      new_name: "String should match pattern '^[a-zA-Z0-9][a-zA-Z0-9\\.\\-_~]*$'",
    });
    assert.deepEqual(errorsOf(checkBody('flow-create', { name: 'f', template: ['artifact'] })), {
      description: 'Field required',
    });
    assert.deepEqual(
      errorsOf(checkBody('environment-create', { name: 'prod', type: 'k8s', description: '', color: 'red' })),
      {
        type: "Input should be 'K8S', 'ECS', 'S3', 'lambda', 'server', 'docker', 'azure-apps', 'cloud-run' or 'logical'",
        color: 'Extra inputs are not permitted',
      },
    );
    assert.deepEqual(errorsOf(checkBody('flow-template-create', { name: 'f', visibility: '' })), {
      visibility: "Input should be 'public' or 'private'",
    });
    assert.deepEqual(errorsOf(checkBody('artifact-create', { fingerprint: 'a'.repeat(64), filename: 7 })), {
      filename: 'Input should be a valid string',
    });
    assert.deepEqual(errorsOf(checkBody('control-create', { identifier: 'c'.repeat(257), name: 'n' })), {
      identifier: 'String should have at most 256 characters',
    });
  });

  it('accepts the bodies the official client sends', () => {
    assert.deepEqual(
      checkBody('environment-create', {
        name: 'prod',
        type: 'K8S',
        description: 'cluster',
        include_scaling: false,
        require_provenance: false,
        included_environments: [],
        policies: [],
      }),
      [],
    );
    assert.deepEqual(
      checkBody('trail-create', {
        name: 'abc',
        description: 'd',
        user_data: {},
        git_commit_info: { sha1: 'abc', message: 'm', author: 'a', timestamp: 1, branch: 'main' },
      }),
      [],
    );
    assert.deepEqual(
      checkBody('artifact-create', {
        fingerprint: 'a'.repeat(64),
        filename: 'app',
        git_commit: 'c'.repeat(40),
        build_url: 'b',
        commit_url: 'c',
        repo_url: 'r',
        commits_list: [],
      }),
      [],
    );
    assert.deepEqual(checkBody('service-account-create', { name: 'ci', privilege: 'snapshotter' }), []);
    assert.deepEqual(
      checkBody('environment-action-create', {
        name: 'n',
        targets: [{ type: 'WEBHOOK', webhook: 'http://127.0.0.1/x' }],
        environments: ['prod'],
        triggers: ['ON_STARTED_ARTIFACT'],
      }),
      [],
    );
  });
});

describe('report bodies', () => {
  it('K8S accepts owners and keys errors like artifacts[0].digests', () => {
    const pod = {
      podName: 'p',
      namespace: 'n',
      creationTimestamp: 1,
      digests: { 'img:1': 'a'.repeat(64) },
      owners: [{ kind: 'ReplicaSet', controller: true }],
    };
    assert.deepEqual(checkK8sReport({ artifacts: [pod] }), []);
    assert.deepEqual(errorsOf(checkK8sReport({ artifacts: [{ ...pod, digests: { 'img:1': 'short' } }] })), {
      'artifacts[0].digests.img:1': "String should match pattern '^[a-f0-9]{64}$'",
    });
  });

  it('has a schema for every report type of the reference', () => {
    const minimal: Record<string, unknown> = { digests: { x: 'a'.repeat(64) }, creationTimestamp: 1 };
    const extra: Record<string, Record<string, unknown>> = {
      K8S: { podName: 'p', namespace: 'n' },
      ECS: { taskArn: 't', digests: { x: '' } },
      'azure-apps': { app_name: 'a' },
      'cloud-run': { kind: 'job' },
    };
    for (const type of reportTypes) {
      assert.deepEqual(checkReport(type, { artifacts: [{ ...minimal, ...extra[type] }] }), [], type);
      assert.ok(checkReport(type, { artifacts: [{}] }).length > 0, type);
    }
  });
});
