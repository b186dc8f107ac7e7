// Controls (beta) and decisions (reference §2.11, spec endpoints 7 and 8), against the real server.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FromSchema } from 'json-schema-to-ts';
import type { control } from '../../shared/contract/governance.ts';
import type { namedPage } from '../../shared/contract/pagination.ts';
import type { Control, ErrorBody } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';

/** The controls list: `{controls, page, per_page, total_pages, total_count, _links}`. */
type ControlPage = FromSchema<ReturnType<typeof namedPage<'controls', typeof control>>>;

const FORBIDDEN = { message: "You don't have permission to access this resource" };
const SCHEMA = '_schema: https://compliance-evidence.dev/schemas/policy/environment/v1';

describe('controls', () => {
  let server: TestServer;
  let configDir: string;
  before(async () => {
    configDir = mkdtempSync(join(tmpdir(), 'cev-controls-'));
    const config = join(configDir, 'config.yml');
    writeFileSync(config, 'orgs:\n  - name: acme\n  - name: beta-off\n    features:\n      controls: false\n');
    server = await startServer({ args: ['--config', config] });
  });
  after(async () => {
    await server?.stop();
    rmSync(configDir, { recursive: true, force: true });
  });

  const create = <T = Control>(body: unknown) => server.json<T>('POST', '/api/v2/controls/acme', body);

  it('creates with 201 and the control object; a duplicate identifier is 409 with the exact message', async () => {
    const created = await create({
      identifier: 'my-control',
      name: 'My control',
      description: 'd',
      links: { docs: 'https://example.test/c' },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.identifier, 'my-control');
    assert.equal(created.body.name, 'My control');
    assert.equal(created.body.version, 1);
    assert.equal(created.body.archived, false);
    assert.deepEqual(created.body.links, { docs: 'https://example.test/c' });
    assert.deepEqual(created.body.tags, {});
    assert.deepEqual(created.body.policies_referencing, []);
    assert.equal(typeof created.body.created_at, 'number');
    assert.equal(created.body.created_by, 'admin');
    const again = await create({ identifier: 'my-control', name: 'Again' });
    assert.equal(again.status, 409);
    assert.deepEqual(again.body, {
      message: "A control with identifier 'my-control' already exists in organization 'acme'",
    });
    const bad = await create<ErrorBody>({ identifier: 'bad identifier', name: 'x' });
    assert.equal(bad.status, 400);
    assert.equal(
      bad.body.errors?.identifier,
      "String should match pattern '^[a-zA-Z0-9\\-._~]+$' [input: bad identifier]",
    );
  });

  it('gets, updates (version + 1), and 404s with the long message', async () => {
    const got = await server.get<Control>('/api/v2/controls/acme/my-control');
    assert.equal(got.status, 200);
    assert.equal(got.body.identifier, 'my-control');
    const missing = await server.get('/api/v2/controls/acme/no-such-control');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { message: "Control 'no-such-control' does not exist in organization 'acme'" });
    const updated = await server.json<Control>('PUT', '/api/v2/controls/acme/my-control', {
      name: 'Renamed',
      links: {},
    });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.name, 'Renamed');
    assert.equal(updated.body.description, 'd');
    assert.deepEqual(updated.body.links, {});
    assert.equal(updated.body.version, 2);
    assert.equal((await server.json('PUT', '/api/v2/controls/acme/nope', { name: 'x' })).status, 404);
  });

  it('archives (spec endpoint 8) and unarchives; lists hide archived controls unless asked', async () => {
    await create({ identifier: 'other', name: 'Other' });
    const archived = await server.json<Control>('POST', '/api/v2/controls/acme/my-control/archive', null);
    assert.equal(archived.status, 200);
    assert.equal(archived.body.archived, true);
    assert.equal(archived.body.identifier, 'my-control');
    const unknown = await server.json('POST', '/api/v2/controls/acme/nope/archive', null);
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, { message: "Control 'nope' does not exist in organization 'acme'" });
    const list = (await server.get<ControlPage>('/api/v2/controls/acme')).body;
    assert.deepEqual(Object.keys(list).sort(), [
      '_links',
      'controls',
      'page',
      'per_page',
      'total_count',
      'total_pages',
    ]);
    assert.deepEqual(
      list.controls.map((c) => c.identifier),
      ['other'],
    );
    const withArchived = (await server.get<ControlPage>('/api/v2/controls/acme?archived=true')).body;
    assert.deepEqual(
      withArchived.controls.map((c) => c.identifier),
      ['my-control', 'other'],
    );
    assert.deepEqual([list.total_count, withArchived.total_count], [1, 2]);
    assert.deepEqual((await server.get<ControlPage>('/api/v2/controls/acme?page=999')).body.controls, []);
    assert.deepEqual(
      (await server.get<ControlPage>('/api/v2/controls/acme?search=OTH')).body.controls.map((c) => c.identifier),
      ['other'],
    );
    const unarchived = await server.json<Control>('POST', '/api/v2/controls/acme/my-control/unarchive', null);
    assert.equal(unarchived.status, 200);
    assert.equal(unarchived.body.archived, false);
    assert.equal(
      (await create({ identifier: 'my-control', name: 'x' })).status,
      409,
      'an archived identifier stays taken',
    );
    assert.equal((await server.get<ControlPage>('/api/v2/controls/acme')).body.total_count, 2);
  });

  it('tags controls through the tags route and filters by tag', async () => {
    assert.equal(
      (await server.json('PATCH', '/api/v2/tags/acme/control/other', { set_tags: { area: 'sec' } })).status,
      200,
    );
    assert.deepEqual((await server.get<Control>('/api/v2/controls/acme/other')).body.tags, { area: 'sec' });
    assert.deepEqual(
      (await server.get<ControlPage>('/api/v2/controls/acme?tag=area:sec')).body.controls.map((c) => c.identifier),
      ['other'],
    );
  });

  it('searches names case aside beyond ASCII, as renamed', async () => {
    await create({ identifier: 'pastry', name: 'ÉCLAIR Ωmega' });
    const found = async (search: string) =>
      (await server.get<ControlPage>(`/api/v2/controls/acme?search=${encodeURIComponent(search)}`)).body.controls.map(
        (c) => c.identifier,
      );
    assert.deepEqual(await found('éclair ω'), ['pastry']);
    assert.equal((await server.json('PUT', '/api/v2/controls/acme/pastry', { name: 'Ärger' })).status, 200);
    assert.deepEqual(await found('éclair'), []);
    assert.deepEqual(await found('äR'), ['pastry']);
    assert.deepEqual(await found('PASTR'), ['pastry']);
  });

  it('names the policies that reference a control', async () => {
    const yaml = `${SCHEMA}\nartifacts:\n  attestations:\n    - name: decision\n      type: decision\n      for_control: other\n`;
    const put = await server.multipart('PUT', '/api/v2/policies/acme', {
      payload: JSON.stringify({ name: 'needs-decision' }),
      policy_file: yaml,
    });
    assert.equal(put.status, 201, put.text);
    assert.deepEqual((await server.get<Control>('/api/v2/controls/acme/other')).body.policies_referencing, [
      'needs-decision',
    ]);
    assert.deepEqual((await server.get<Control>('/api/v2/controls/acme/my-control')).body.policies_referencing, []);
  });

  it('answers Control or decision not found for an unknown control or decision', async () => {
    for (const path of [
      '/api/v2/controls/acme/other/decisions/00000000-0000-0000-0000-00000000',
      '/api/v2/controls/acme/nope/decisions/x',
    ]) {
      const reply = await server.get(path);
      assert.equal(reply.status, 404);
      assert.deepEqual(reply.body, { message: 'Control or decision not found' });
    }
  });

  it('answers 403 on every controls route when the feature is off', async () => {
    const routes: Array<[string, string, unknown?]> = [
      ['POST', '/api/v2/controls/beta-off', { identifier: 'x', name: 'x' }],
      ['POST', '/api/v2/controls/beta-off', { identifier: 'bad identifier' }],
      ['GET', '/api/v2/controls/beta-off'],
      ['GET', '/api/v2/controls/beta-off/x'],
      ['PUT', '/api/v2/controls/beta-off/x', { name: 'y' }],
      ['POST', '/api/v2/controls/beta-off/x/archive', null],
      ['POST', '/api/v2/controls/beta-off/x/unarchive', null],
      ['GET', '/api/v2/controls/beta-off/x/decisions/y'],
      ['PATCH', '/api/v2/tags/beta-off/control/x', { set_tags: { a: 'b' } }],
    ];
    for (const [method, path, body] of routes) {
      const reply = await server.json(method, path, body);
      assert.equal(reply.status, 403, `${method} ${path}`);
      assert.deepEqual(reply.body, FORBIDDEN);
    }
  });
});
