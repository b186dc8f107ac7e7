// Flows: spec endpoint 3, legacy create, list, get, archive, rename (reference §2.1, §6 items 1–8).
import assert from 'node:assert/strict';
import type { ErrorBody, Flow, Page, Trail } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';
import { beginTrail, createFlow, WORKED_TEMPLATE } from './fixtures.ts';

const PUBLIC = 'https://evidence.example.test';

describe('flows', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ args: ['--org', 'acme', '--org', 'empty', '--public-url', `${PUBLIC}/`] });
  });
  after(async () => {
    await server?.stop();
  });

  it('creates with a template (201), updates on the same request (200), and answers string bodies', async () => {
    const parts = {
      data_json: JSON.stringify({ name: 'created', description: 'first' }),
      template_file: WORKED_TEMPLATE,
    };
    const first = await server.multipart('PUT', '/api/v2/flows/acme/template_file', parts);
    assert.equal(first.status, 201);
    assert.equal(typeof first.body, 'string');
    const second = await server.multipart('PUT', '/api/v2/flows/acme/template_file', parts);
    assert.equal(second.status, 200);
    assert.equal(typeof second.body, 'string');
  });

  it('accepts the template as a file part named template_file or template_file.0', async () => {
    const asFile = await server.multipart('PUT', '/api/v2/flows/acme/template_file', {
      data_json: JSON.stringify({ name: 'from-file' }),
      template_file: { filename: 'template.yml', content: WORKED_TEMPLATE },
    });
    assert.equal(asFile.status, 201);
    const dotZero = await server.multipart('PUT', '/api/v2/flows/acme/template_file', {
      data_json: JSON.stringify({ name: 'from-dot-zero' }),
      'template_file.0': { filename: 'template.yml', content: WORKED_TEMPLATE },
    });
    assert.equal(dotZero.status, 201);
    for (const name of ['from-file', 'from-dot-zero']) {
      assert.equal((await server.get<Flow>(`/api/v2/flows/acme/${name}`)).body.template, WORKED_TEMPLATE);
    }
  });

  it('accepts the empty template and keeps a description with brackets exactly', async () => {
    const description = 'Spec [v2] (beta) {x} <y> & "quotes" \'single\' ü';
    assert.equal((await createFlow(server, 'acme', 'empty-template', 'version: 1', description)).status, 201);
    const flow = (await server.get<Flow>('/api/v2/flows/acme/empty-template')).body;
    assert.equal(flow.description, description);
    assert.equal(flow.template, 'version: 1');
    assert.equal(flow.html_url, `${PUBLIC}/acme/flows/empty-template`);
    assert.match(flow.id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{8}$/);
    assert.deepEqual(flow.tags, {});
    assert.equal(flow.visibility, 'private');
  });

  it('rejects an invalid template with the field errors and changes nothing', async () => {
    const reply = await server.multipart<ErrorBody>('PUT', '/api/v2/flows/acme/template_file', {
      data_json: JSON.stringify({ name: 'bad-template' }),
      template_file: 'version: 1\ntrail:\n  attestations:\n    - name: ""\n      type: not-supported\n',
    });
    assert.equal(reply.status, 400);
    assert.equal(reply.body.message, 'Input payload validation failed');
    assert.deepEqual(Object.keys(reply.body.errors ?? {}).sort(), [
      'trail.attestations[0].name',
      'trail.attestations[0].type',
    ]);
    assert.equal(
      reply.body.errors?.['trail.attestations[0].name'],
      "String should match pattern '^[a-zA-Z0-9_,-]+$' [input: ]",
    );
    assert.match(
      reply.body.errors?.['trail.attestations[0].type'] ?? '',
      /^Input should be 'generic', .* \[input: not-supported\]$/,
    );
    assert.equal((await server.get('/api/v2/flows/acme/bad-template')).status, 404);
  });

  it('rejects a YAML syntax error, a missing name, bad visibility and a missing data_json', async () => {
    const syntax = await server.multipart<ErrorBody>('PUT', '/api/v2/flows/acme/template_file', {
      data_json: JSON.stringify({ name: 'syntax' }),
      template_file: 'version: [1\n',
    });
    assert.equal(syntax.status, 400);
    assert.equal(syntax.body.message, 'Input payload validation failed');
    const noName = await server.multipart('PUT', '/api/v2/flows/acme/template_file', {
      data_json: JSON.stringify({ description: 'x' }),
      template_file: 'version: 1',
    });
    assert.deepEqual(noName.body, {
      errors: { name: 'Field required [input: None]' },
      message: 'Input payload validation failed',
    });
    const visibility = await server.multipart('PUT', '/api/v2/flows/acme/template_file', {
      data_json: JSON.stringify({ name: 'vis', visibility: '' }),
    });
    assert.deepEqual(visibility.body, {
      errors: { visibility: "Input should be 'public' or 'private' [input: ]" },
      message: 'Input payload validation failed',
    });
    const noData = await server.multipart('PUT', '/api/v2/flows/acme/template_file', { template_file: 'version: 1' });
    assert.deepEqual(noData.body, {
      errors: { data_json: 'Field required [input: None]' },
      message: 'Input payload validation failed',
    });
    const badJson = await server.multipart<ErrorBody>('PUT', '/api/v2/flows/acme/template_file', {
      data_json: '{"name": ',
    });
    assert.equal(badJson.status, 400);
    assert.match(badJson.body.errors?.data_json ?? '', /^Invalid JSON: /);
  });

  it('legacy PUT creates (201) a template of one artifact named artifact, then updates (200); description is required', async () => {
    const body = { name: 'legacy', description: 'old style', template: ['artifact', ' unit-test ', 'lint'] };
    assert.equal((await server.json('PUT', '/api/v2/flows/acme', body)).status, 201);
    const again = await server.json('PUT', '/api/v2/flows/acme', body);
    assert.equal(again.status, 200);
    assert.equal(again.body, 'OK');
    await beginTrail(server, 'acme', 'legacy', 'legacy-trail');
    const trail = (await server.get<Trail>('/api/v2/trails/acme/legacy/legacy-trail')).body;
    assert.deepEqual(trail.template.trail?.artifacts, [
      {
        name: 'artifact',
        attestations: [
          { name: 'unit-test', type: '*' },
          { name: 'lint', type: '*' },
        ],
      },
    ]);
    const missing = await server.json('PUT', '/api/v2/flows/acme', { name: 'legacy2' });
    assert.deepEqual(missing.body, {
      errors: { description: 'Field required [input: None]' },
      message: 'Input payload validation failed',
    });
  });

  it('lists as an array without paging and as {data, pagination} with paging', async () => {
    assert.deepEqual((await server.get('/api/v2/flows/empty')).body, []);
    const all = (await server.get<Flow[]>('/api/v2/flows/acme')).body;
    assert.ok(Array.isArray(all));
    const names = all.map((flow: { name: string }) => flow.name);
    assert.deepEqual(names, [...names].sort());
    for (const flow of all) {
      assert.ok('latest_activity_at' in flow && 'latest_state' in flow);
    }
    const paged = await server.get<Page<Flow>>('/api/v2/flows/acme?page=2&per_page=2');
    assert.equal(paged.body.data.length, 2);
    assert.deepEqual(paged.body.pagination, {
      total: all.length,
      page: 2,
      per_page: 2,
      page_count: Math.ceil(all.length / 2),
    });
    const beyond = await server.get('/api/v2/flows/acme?page=99&per_page=20');
    assert.deepEqual(beyond.body, {
      data: [],
      pagination: { total: all.length, page: 99, per_page: 20, page_count: Math.ceil(all.length / 20) },
    });
    const desc = (await server.get<Flow[]>('/api/v2/flows/acme?sort=name&sort_direction=desc')).body.map(
      (flow: { name: string }) => flow.name,
    );
    assert.deepEqual(desc, [...names].reverse());
  });

  it('sorts by latest activity, searches by name and validates the list parameters', async () => {
    await createFlow(server, 'acme', 'active-flow');
    await beginTrail(server, 'acme', 'active-flow', 'recent');
    const byActivity = (await server.get<Flow[]>('/api/v2/flows/acme?sort=latest_activity')).body;
    assert.equal(byActivity[0].name, 'active-flow');
    assert.equal(byActivity[0].latest_state, 'COMPLIANT');
    assert.equal(typeof byActivity[0].latest_activity_at, 'number');
    const found = (await server.get<Flow[]>('/api/v2/flows/acme?search_by_name=ACTIVE&case_sensitive=false')).body.map(
      (flow: { name: string }) => flow.name,
    );
    assert.deepEqual(found, ['active-flow']);
    assert.deepEqual((await server.get('/api/v2/flows/acme?search_by_name=ACTIVE')).body, []);
    assert.deepEqual((await server.get('/api/v2/flows/acme?search_by_name=ACTIVE&case_sensitive=true')).body, []);
    const empty = await server.get('/api/v2/flows/acme?search_by_name=');
    assert.equal(empty.status, 400);
    assert.deepEqual(empty.body, { message: 'Empty string is not allowed for flow names.' });
    const direction = await server.get('/api/v2/flows/acme?sort_direction=');
    assert.deepEqual(direction.body, {
      errors: { 'query.sort_direction': "Input should be 'asc' or 'desc' [input: ]" },
      message: 'Input payload validation failed',
    });
    const perPage = await server.get<ErrorBody>('/api/v2/flows/acme?per_page=101');
    assert.deepEqual(perPage.body.errors, {
      'query.per_page': 'Input should be less than or equal to 100 [input: 101]',
    });
  });

  it('gets a flow, and answers 404 with the exact message for an unknown one', async () => {
    const missing = await server.get('/api/v2/flows/acme/non-existing');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { message: "Flow named 'non-existing' does not exist for organization 'acme'" });
  });

  it('archives a flow (gone from lists, name free again) and 404s for an unknown one', async () => {
    await createFlow(server, 'acme', 'to-archive');
    const archived = await server.json('PUT', '/api/v2/flows/acme/to-archive/archive', null);
    assert.equal(archived.status, 200);
    assert.equal((await server.get('/api/v2/flows/acme/to-archive')).status, 404);
    assert.ok(
      !(await server.get<Flow[]>('/api/v2/flows/acme')).body.some(
        (flow: { name: string }) => flow.name === 'to-archive',
      ),
    );
    assert.equal((await createFlow(server, 'acme', 'to-archive')).status, 201);
    const unknown = await server.json('PUT', '/api/v2/flows/acme/non-existing/archive', null);
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, { message: "Flow named 'non-existing' does not exist for organization 'acme'" });
  });

  it('renames a flow, rejects an illegal name with the pattern error, and 404s for an unknown one', async () => {
    await createFlow(server, 'acme', 'rename-flow');
    assert.equal(
      (await server.json('PUT', '/api/v2/flows/acme/rename-flow/rename', { new_name: 'new-name-456' })).status,
      200,
    );
    assert.equal((await server.get('/api/v2/flows/acme/new-name-456')).status, 200);
    assert.equal((await server.get('/api/v2/flows/acme/rename-flow')).status, 404);
    const illegal = await server.json('PUT', '/api/v2/flows/acme/new-name-456/rename', {
      new_name: 'new illegal name',
    });
    assert.equal(illegal.status, 400);
    assert.deepEqual(illegal.body, {
      errors: { new_name: "String should match pattern '^[a-zA-Z0-9][a-zA-Z0-9\\.\\-_~]*$' [input: new illegal name]" },
      message: 'Input payload validation failed',
    });
    assert.equal((await server.json('PUT', '/api/v2/flows/acme/non-existing/rename', { new_name: 'x' })).status, 404);
    const taken = await server.json('PUT', '/api/v2/flows/acme/new-name-456/rename', { new_name: 'legacy' });
    assert.equal(taken.status, 400);
  });

  it('filters by tags set through the tags route', async () => {
    await createFlow(server, 'acme', 'tagged');
    assert.equal(
      (await server.json('PATCH', '/api/v2/tags/acme/flow/tagged', { set_tags: { team: 'blue' } })).body,
      'OK',
    );
    const byKey = (await server.get<Flow[]>('/api/v2/flows/acme?tag=team')).body.map(
      (flow: { name: string }) => flow.name,
    );
    assert.deepEqual(byKey, ['tagged']);
    assert.deepEqual((await server.get('/api/v2/flows/acme?tag=team:red')).body, []);
  });
});
