// The spec's list rule for environments, policies, controls and actions: a record that cannot be
// read leaves the list standing, with a marked placeholder in its place. Rows are damaged in the
// real database file, behind the server.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { environment } from '../../shared/contract/environments.ts';
import type { action, control, policy } from '../../shared/contract/governance.ts';
import type { namedPage, orPlaceholder } from '../../shared/contract/pagination.ts';
import { startServer, type TestServer } from './harness.ts';

/** A list's item as the contract has it: the record, or the placeholder standing in for an unreadable one. */
type Listed<Schema extends JSONSchema> = ReturnType<typeof orPlaceholder<Schema>>;
type ListOf<Schema extends JSONSchema> = Array<FromSchema<Listed<Schema>>>;
/** `{<name>: [item or placeholder], page, per_page, total_pages, total_count, _links}`. */
type NamedPage<Name extends string, Schema extends JSONSchema> = FromSchema<
  ReturnType<typeof namedPage<Name, Listed<Schema>>>
>;
type EnvironmentPage = NamedPage<'environments', typeof environment>;
type ControlPage = NamedPage<'controls', typeof control>;

const isPlaceholder = (entry: Record<string, unknown>) =>
  entry.placeholder === true && typeof entry.message === 'string' && typeof entry.id === 'string';

describe('environment resource lists with unreadable records', () => {
  let server: TestServer;
  let db: DatabaseSync;
  before(async () => {
    server = await startServer({ args: ['--org', 'acme'] });
    for (const name of ['good', 'damaged']) {
      await server.json('PUT', '/api/v2/environments/acme', { name, type: 'K8S', description: name });
      const yaml =
        '_schema: https://compliance-evidence.dev/schemas/policy/environment/v1\nartifacts:\n  provenance:\n    required: true\n';
      await server.multipart('PUT', '/api/v2/policies/acme', { payload: JSON.stringify({ name }), policy_file: yaml });
      await server.json('POST', '/api/v2/controls/acme', { identifier: name, name });
      await server.json('PUT', '/api/v2/actions/acme/environments', {
        name,
        targets: [{ type: 'EMAIL', emails: ['a@example.test'] }],
        environments: [name],
        triggers: ['ON_STARTED_ARTIFACT'],
      });
    }
    db = new DatabaseSync(join(server.dataDir, 'cev.sqlite'));
    db.exec('PRAGMA busy_timeout = 5000');
    db.prepare("UPDATE environments SET tags = '{' WHERE name = 'damaged'").run();
    db.prepare(
      "UPDATE policy_events SET data = '[' WHERE policy_id = (SELECT id FROM policies WHERE name = 'damaged')",
    ).run();
    db.prepare("UPDATE controls SET links = 'x' WHERE identifier = 'damaged'").run();
    db.prepare("UPDATE actions SET targets = '{' WHERE name = 'damaged'").run();
  });
  after(async () => {
    db?.close();
    await server?.stop();
  });

  it('lists the readable records and a placeholder for each damaged one', async () => {
    const names = (entries: Array<Record<string, unknown>>, key: string) =>
      entries.map((entry) => (isPlaceholder(entry) ? 'placeholder' : entry[key]));
    const environments = await server.get<ListOf<typeof environment>>('/api/v2/environments/acme');
    assert.equal(environments.status, 200);
    assert.deepEqual(names(environments.body, 'name'), ['good', 'placeholder']);
    const paged = (await server.get<EnvironmentPage>('/api/v2/environments/acme?page=1&per_page=10')).body;
    assert.equal(paged.total_count, 2);
    // The placeholders follow the selected environments on every page, whatever the filter.
    const pageOf = async (query: string) =>
      (await server.get<EnvironmentPage>(`/api/v2/environments/acme?${query}`)).body;
    assert.deepEqual(names((await pageOf('page=1&per_page=1')).environments, 'name'), ['good']);
    assert.deepEqual(names((await pageOf('page=2&per_page=1')).environments, 'name'), ['placeholder']);
    assert.deepEqual(names((await pageOf('page=3&per_page=1')).environments, 'name'), []);
    const unmatched = await pageOf('name=nothing&page=1&per_page=10');
    assert.equal(unmatched.total_count, 1);
    assert.deepEqual(names(unmatched.environments, 'name'), ['placeholder']);
    assert.deepEqual(
      names((await pageOf('name=GOO&sort=name&sort_direction=desc&page=2&per_page=1')).environments, 'name'),
      ['placeholder'],
    );
    assert.deepEqual(
      names((await server.get<ListOf<typeof policy>>('/api/v2/policies/acme')).body, 'name'),
      ['placeholder', 'good'],
      'in name order',
    );
    const controls = (await server.get<ControlPage>('/api/v2/controls/acme')).body;
    assert.equal(controls.total_count, 2);
    assert.deepEqual(names(controls.controls, 'identifier'), ['good', 'placeholder']);
    const unmatchedControls = (await server.get<ControlPage>('/api/v2/controls/acme?search=nothing')).body;
    assert.equal(unmatchedControls.total_count, 1);
    assert.deepEqual(names(unmatchedControls.controls, 'identifier'), ['placeholder']);
    assert.deepEqual(
      names(
        (await server.get<ControlPage>('/api/v2/controls/acme?sort_direction=desc&page=2&per_page=1')).body.controls,
        'identifier',
      ),
      ['placeholder'],
    );
    assert.deepEqual(names((await server.get<ListOf<typeof action>>('/api/v2/actions/acme')).body, 'name'), [
      'good',
      'placeholder',
    ]);
  });
});
