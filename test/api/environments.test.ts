// Environments (reference §2.5, §6 items 31–36) and the tags route (§2.13), against the real server.
import assert from 'node:assert/strict';
import type { FromSchema } from 'json-schema-to-ts';
import type { environment } from '../../shared/contract/environments.ts';
import type { namedPage } from '../../shared/contract/pagination.ts';
import type { AllowlistEntry, Environment, ErrorBody } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';

/** The paged environment list: `{environments, page, per_page, total_pages, total_count, _links}`. */
type EnvironmentPage = FromSchema<ReturnType<typeof namedPage<'environments', typeof environment>>>;

const ENV_PATTERN = '^[a-zA-Z0-9][a-zA-Z0-9\\.\\-_]*$';

describe('environments', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ args: ['--org', 'acme', '--org', 'empty'] });
  });
  after(async () => {
    await server?.stop();
  });

  const put = <T = string>(body: unknown) => server.json<T>('PUT', '/api/v2/environments/acme', body);

  it('creates with 201 "OK", updates with 200 "OK", and reads back every field', async () => {
    const created = await put({ name: 'newEnv1', type: 'server', description: 'first' });
    assert.equal(created.status, 201);
    assert.equal(created.body, 'OK');
    const again = await put({ name: 'newEnv1', type: 'server', description: 'second', include_scaling: true });
    assert.equal(again.status, 200);
    assert.equal(again.body, 'OK');
    const got = await server.get<Environment>('/api/v2/environments/acme/newEnv1');
    assert.equal(got.status, 200);
    assert.equal(got.body.name, 'newEnv1');
    assert.equal(got.body.org, 'acme');
    assert.equal(got.body.type, 'server');
    assert.equal(got.body.description, 'second');
    assert.equal(got.body.include_scaling, false, 'include_scaling always reads false');
    assert.deepEqual(got.body.tags, {});
    assert.deepEqual(got.body.policies, []);
    assert.equal(got.body.state, null, 'no snapshot → state null');
    assert.equal(got.body.last_reported_at, null);
    assert.equal(typeof got.body.last_modified_at, 'number');
    assert.match(got.body.html_url, /\/acme\/environments\/newEnv1$/);
  });

  it('keeps the stored description when an update sends an empty one', async () => {
    await put({ name: 'keep-desc', type: 'docker', description: 'kept' });
    await put({ name: 'keep-desc', type: 'docker', description: '' });
    assert.equal((await server.get<Environment>('/api/v2/environments/acme/keep-desc')).body.description, 'kept');
  });

  it('rejects a wrong-case or unknown type with a type error echoing the input, and stores nothing', async () => {
    for (const type of ['k8s', 'unknown']) {
      const reply = await put<ErrorBody>({ name: `bad-type-${type}`, type, description: 'x' });
      assert.equal(reply.status, 400);
      assert.equal(reply.body.message, 'Input payload validation failed');
      assert.equal(
        reply.body.errors?.type,
        `Input should be 'K8S', 'ECS', 'S3', 'lambda', 'server', 'docker', 'azure-apps', 'cloud-run' or 'logical' [input: ${type}]`,
      );
      assert.equal((await server.get(`/api/v2/environments/acme/bad-type-${type}`)).status, 404);
    }
  });

  it('rejects a bad name, a missing description and unknown fields', async () => {
    const name = await put<ErrorBody>({ name: 'bad name', type: 'K8S', description: 'x' });
    assert.equal(name.status, 400);
    assert.equal(name.body.errors?.name, `String should match pattern '${ENV_PATTERN}' [input: bad name]`);
    const description = await put<ErrorBody>({ name: 'nodesc', type: 'K8S' });
    assert.equal(description.status, 400);
    assert.equal(description.body.errors?.description, 'Field required [input: None]');
    const extra = await put<ErrorBody>({ name: 'extra', type: 'K8S', description: 'x', colour: 'red' });
    assert.equal(extra.status, 400);
    assert.equal(extra.body.errors?.colour, 'Extra inputs are not permitted [input: red]');
    assert.equal((await server.get('/api/v2/environments/acme/extra')).status, 404);
  });

  it('answers 404 with the long message for an unknown environment', async () => {
    const reply = await server.get('/api/v2/environments/acme/non-existing');
    assert.equal(reply.status, 404);
    assert.deepEqual(reply.body, {
      message: "Environment named 'non-existing' does not exist for organization 'acme'",
    });
  });

  it('creates logical environments over existing physical ones, and joins more', async () => {
    await put({ name: 'phys-a', type: 'K8S', description: 'a' });
    await put({ name: 'phys-b', type: 'ECS', description: 'b' });
    const created = await put({
      name: 'logical-1',
      type: 'logical',
      description: 'l',
      included_environments: ['phys-a'],
    });
    assert.equal(created.status, 201);
    const unknown = await put({
      name: 'logical-2',
      type: 'logical',
      description: 'l',
      included_environments: ['phys-a', 'nope'],
    });
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, { message: "Environment named 'nope' does not exist for organization 'acme'" });
    assert.equal((await server.get('/api/v2/environments/acme/logical-2')).status, 404, 'nothing half-created');
    const joined = await server.json('PUT', '/api/v2/environments/acme/logical-1/join', {
      physical_env_name: 'phys-b',
    });
    assert.equal(joined.status, 200);
    assert.deepEqual(
      (await server.get<Environment>('/api/v2/environments/acme/logical-1')).body.included_environments,
      ['phys-a', 'phys-b'],
    );
    const notLogical = await server.json('PUT', '/api/v2/environments/acme/phys-a/join', {
      physical_env_name: 'phys-b',
    });
    assert.equal(notLogical.status, 400);
    // A physical environment may name environments to include (reference §8.3 item 15): looked up, not included.
    const physicalOnly = await put({
      name: 'lone',
      type: 'K8S',
      description: 'c',
      included_environments: ['phys-a'],
    });
    assert.equal(physicalOnly.status, 201);
    assert.deepEqual((await server.get<Environment>('/api/v2/environments/acme/lone')).body.included_environments, []);
    assert.equal((await server.json('PUT', '/api/v2/environments/acme/lone/archive', null)).status, 200);
  });

  it('lists as an array, or as the paged envelope; filters by name, type and tag; sorts', async () => {
    assert.deepEqual((await server.get('/api/v2/environments/empty')).body, []);
    const all = await server.get<Environment[]>('/api/v2/environments/acme');
    assert.ok(Array.isArray(all.body));
    assert.ok(all.body.some((environment) => environment.name === 'newEnv1'));
    const byName = await server.get<Environment[]>('/api/v2/environments/acme?name=PHYS');
    assert.deepEqual(
      byName.body.map((environment) => environment.name),
      ['phys-a', 'phys-b'],
    );
    const byType = await server.get<Environment[]>('/api/v2/environments/acme?type=K8S&type=ECS');
    assert.deepEqual(byType.body.map((environment) => environment.name).sort(), ['phys-a', 'phys-b']);
    const desc = await server.get<Environment[]>('/api/v2/environments/acme?name=phys&sort=name&sort_direction=desc');
    assert.deepEqual(
      desc.body.map((environment) => environment.name),
      ['phys-b', 'phys-a'],
    );
    const paged = await server.get<EnvironmentPage>('/api/v2/environments/acme?page=1&per_page=2');
    assert.equal(paged.status, 200);
    assert.deepEqual(Object.keys(paged.body).sort(), [
      '_links',
      'environments',
      'page',
      'per_page',
      'total_count',
      'total_pages',
    ]);
    assert.equal(paged.body.environments.length, 2);
    assert.equal(paged.body.total_count, all.body.length);
    assert.equal(paged.body.total_pages, Math.ceil(all.body.length / 2));
    assert.match(
      paged.body._links.next.href,
      /^http:\/\/127\.0\.0\.1:\d+\/api\/v2\/environments\/acme\?page=2&per_page=2$/,
    );
    const past = await server.get<EnvironmentPage>('/api/v2/environments/acme?page=99&per_page=20');
    assert.deepEqual(past.body.environments, []);
    const tooBig = await server.get<ErrorBody>('/api/v2/environments/acme?page=1&per_page=51');
    assert.equal(tooBig.status, 400);
    assert.ok('query.per_page' in (tooBig.body.errors ?? {}));
    const badSort = await server.get<ErrorBody>('/api/v2/environments/acme?sort_direction=up');
    assert.equal(badSort.body.errors?.['query.sort_direction'], "Input should be 'asc' or 'desc' [input: up]");
  });

  it('patches, renames and archives (freeing the name)', async () => {
    await put({ name: 'rename-env', type: 'S3', description: 'r' });
    const patched = await server.json('PATCH', '/api/v2/environments/acme/rename-env', { description: 'patched' });
    assert.equal(patched.status, 200);
    assert.equal((await server.get<Environment>('/api/v2/environments/acme/rename-env')).body.description, 'patched');
    const illegal = await server.json<ErrorBody>('PUT', '/api/v2/environments/acme/rename-env/rename', {
      new_name: 'new illegal name',
    });
    assert.equal(illegal.status, 400);
    assert.equal(
      illegal.body.errors?.new_name,
      `String should match pattern '${ENV_PATTERN}' [input: new illegal name]`,
    );
    const renamed = await server.json('PUT', '/api/v2/environments/acme/rename-env/rename', {
      new_name: 'new-name-456',
    });
    assert.equal(renamed.status, 200);
    assert.equal((await server.get('/api/v2/environments/acme/rename-env')).status, 404);
    assert.equal((await server.get<Environment>('/api/v2/environments/acme/new-name-456')).body.description, 'patched');
    const archived = await server.json('PUT', '/api/v2/environments/acme/new-name-456/archive', null);
    assert.equal(archived.status, 200);
    assert.equal((await server.get('/api/v2/environments/acme/new-name-456')).status, 404);
    assert.ok(
      !(await server.get<Environment[]>('/api/v2/environments/acme')).body.some(
        (environment) => environment.name === 'new-name-456',
      ),
    );
    assert.equal(
      (await put({ name: 'new-name-456', type: 'K8S', description: 'reused' })).status,
      201,
      'the name is free again',
    );
    const missing = await server.json('PUT', '/api/v2/environments/acme/non-existing/archive', null);
    assert.equal(missing.status, 404);
  });

  it('allows artifacts in an environment and lists the allowlist', async () => {
    await put({ name: 'allow-artifact-env', type: 'K8S', description: 'a' });
    const fingerprint = 'a'.repeat(64);
    const allowed = await server.json('PUT', '/api/v2/allowlists/acme/allow-artifact-env', {
      artifact_fingerprint: fingerprint,
      description: 'hotfix',
    });
    assert.equal(allowed.status, 200, allowed.text);
    assert.equal(allowed.body, 'OK');
    await server.json('PUT', '/api/v2/allowlists/acme/allow-artifact-env', {
      artifact_fingerprint: fingerprint,
      artifact_name: 'web:1',
      description: 'hotfix, named',
    });
    const list = (await server.get<AllowlistEntry[]>('/api/v2/allowlists/acme')).body;
    assert.deepEqual(
      list.map((e) => [e.environment_name, e.artifact_fingerprint, e.artifact_name, e.description]),
      [['allow-artifact-env', fingerprint, 'web:1', 'hotfix, named']],
    );
    const bad = await server.json<ErrorBody>('PUT', '/api/v2/allowlists/acme/allow-artifact-env', {
      artifact_fingerprint: 'xyz',
      description: 'd',
    });
    assert.equal(bad.status, 400);
    assert.ok('artifact_fingerprint' in (bad.body.errors ?? {}));
    const missing = await server.json('PUT', '/api/v2/allowlists/acme/nope', {
      artifact_fingerprint: fingerprint,
      description: 'd',
    });
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { message: "Environment named 'nope' does not exist for organization 'acme'" });
  });

  it('tags environments: set, remove (also absent keys), and filters lists by tag', async () => {
    await put({ name: 'tag-env', type: 'K8S', description: 't' });
    const set = await server.json('PATCH', '/api/v2/tags/acme/env/tag-env', { set_tags: { foo: 'bar', team: 'x' } });
    assert.equal(set.status, 200);
    assert.equal(set.body, 'OK');
    const removed = await server.json('PATCH', '/api/v2/tags/acme/environments/tag-env', {
      remove_tags: ['team', 'non-existing'],
    });
    assert.equal(removed.status, 200);
    assert.deepEqual((await server.get<Environment>('/api/v2/environments/acme/tag-env')).body.tags, { foo: 'bar' });
    assert.deepEqual(
      (await server.get<Environment[]>('/api/v2/environments/acme?tag=foo:bar')).body.map((e) => e.name),
      ['tag-env'],
    );
    assert.deepEqual((await server.get('/api/v2/environments/acme?tag=foo:baz')).body, []);
    assert.equal((await server.json('PATCH', '/api/v2/tags/acme/env/nope', { set_tags: { a: 'b' } })).status, 404);
    const badType = await server.json('PATCH', '/api/v2/tags/acme/spaceships/x', { set_tags: { a: 'b' } });
    assert.equal(badType.status, 400);
  });
});
