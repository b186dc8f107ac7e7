// Requests real clients send that must be accepted (reference §8.1, items 1 to 4): each test sends
// the request as a client sends it and checks the whole answer.
import assert from 'node:assert/strict';
import type { Attestation, CustomType, ErrorBody, Repo, Trail } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';
import { attest, beginTrail, createFlow } from './fixtures.ts';

const INVALID = 'Input payload validation failed';

describe('requests clients send (reference §8.1)', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ args: ['--org', 'acme'] });
    await createFlow(
      server,
      'acme',
      'flow',
      'version: 1\ntrail:\n  attestations:\n    - name: person\n      type: "*"\n',
    );
    await beginTrail(server, 'acme', 'flow', 'owner-repo', {
      repo_info: { name: 'owner/name', url: 'https://git.example.test/owner/name', id: 'r-1', provider: 'github' },
    });
    await beginTrail(server, 'acme', 'flow', 'group-repo', {
      repo_info: {
        name: 'group/subgroup/name',
        url: 'https://git.example.test/group/subgroup/name',
        id: 'r-2',
        provider: 'gitlab',
      },
    });
  });
  after(async () => {
    await server?.stop();
  });

  const repoAt = async (path: string) => {
    const reply = await server.get<Repo>(`/api/v2/repos/acme/${path}`);
    assert.equal(reply.status, 200, `${path}: ${reply.text}`);
    return reply.body;
  };

  it('8.1.1: a repo name with slashes, raw in the path at any depth or percent-encoded, gets and tags the repo', async () => {
    for (const path of ['owner/name', 'owner%2Fname']) {
      const repo = await repoAt(path);
      assert.deepEqual(
        [repo.id, repo.name, repo.url, repo.provider, repo.tags],
        ['r-1', 'owner/name', 'https://git.example.test/owner/name', 'github', {}],
      );
    }
    for (const path of ['group/subgroup/name', 'group%2Fsubgroup%2Fname', 'group/subgroup%2Fname'])
      assert.equal((await repoAt(path)).id, 'r-2', path);
    const missing = await server.get('/api/v2/repos/acme/owner/other');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { message: "Repo 'owner/other' not found" });

    // The tag command addresses the repo the same way.
    const tagged = await server.json('PATCH', '/api/v2/tags/acme/repo/owner/name', { set_tags: { team: 'blue' } });
    assert.equal(tagged.status, 200, tagged.text);
    assert.equal(tagged.body, 'OK');
    const deep = await server.json('PATCH', '/api/v2/tags/acme/repo/group/subgroup/name', {
      set_tags: { team: 'red' },
    });
    assert.equal(deep.body, 'OK', deep.text);
    const encoded = await server.json('PATCH', '/api/v2/tags/acme/repos/owner%2Fname', { set_tags: { tier: '1' } });
    assert.equal(encoded.body, 'OK', encoded.text);
    assert.deepEqual((await repoAt('owner/name')).tags, { team: 'blue', tier: '1' });
    assert.deepEqual((await repoAt('group/subgroup/name')).tags, { team: 'red' });
    const untagged = await server.json('PATCH', '/api/v2/tags/acme/repo/owner/other', { set_tags: { team: 'x' } });
    assert.equal(untagged.status, 404);
    assert.deepEqual(untagged.body, { message: "Repo 'owner/other' not found" });
  });

  it('8.1.2: PATCH /tags with remove_tags: null or set_tags: null changes only what the other one says', async () => {
    const set = await server.json('PATCH', '/api/v2/tags/acme/flow/flow', {
      set_tags: { team: 'blue', stage: 'prod' },
      remove_tags: null,
    });
    assert.equal(set.status, 200, set.text);
    assert.equal(set.body, 'OK');
    const removed = await server.json('PATCH', '/api/v2/tags/acme/flow/flow', {
      set_tags: null,
      remove_tags: ['stage'],
    });
    assert.equal(removed.status, 200, removed.text);
    assert.equal(removed.body, 'OK');
    const neither = await server.json('PATCH', '/api/v2/tags/acme/flow/flow', { set_tags: null, remove_tags: null });
    assert.equal(neither.status, 200, neither.text);
    assert.deepEqual((await server.get<{ tags: Record<string, string> }>('/api/v2/flows/acme/flow')).body.tags, {
      team: 'blue',
    });
  });

  it('8.1.3: a custom type is created without type_schema: a name only, a description, jq rules only, a summary only, or any mix', async () => {
    const create = (data: Record<string, unknown>) =>
      server.multipart<CustomType>('POST', '/api/v2/custom-attestation-types/acme', {
        data_json: JSON.stringify(data),
      });
    const rules = { content_type: 'jq', rules: ['.age > 21', '.name != ""'] };
    const summary = [{ name: 'age', expression: '.age' }];
    const cases: Array<[string, Record<string, unknown>]> = [
      ['name-only', {}],
      ['described', { description: 'A person' }],
      ['rules-only', { evaluator: rules }],
      ['summary-only', { summary }],
      ['mixed', { description: 'A person', evaluator: rules, summary }],
    ];
    for (const [name, extra] of cases) {
      const created = await create({ name, ...extra });
      assert.equal(created.status, 201, `${name}: ${created.text}`);
      const read = (await server.get<CustomType>(`/api/v2/custom-attestation-types/acme/${name}`)).body;
      assert.deepEqual(
        [read.name, read.version, read.schema, read.evaluator, read.summary, read.description],
        [
          name,
          1,
          { type: 'object' },
          extra.evaluator ?? null,
          extra.summary ?? [],
          (extra.description as string | undefined) ?? null,
        ],
        name,
      );
    }

    // Without a schema the data may be any JSON object; the rules still decide compliance.
    await beginTrail(server, 'acme', 'flow', 'typed');
    const record = async (typeName: string, data: unknown) => {
      const reply = await attest(server, 'acme', 'flow', 'typed', 'custom', {
        attestation_name: 'person',
        type_name: typeName,
        attestation_data: data,
      });
      assert.equal(reply.status, 201, `${typeName}: ${reply.text}`);
      return (await server.get<Attestation[]>('/api/v2/attestations/acme/flow/trail/typed/person')).body[0];
    };
    assert.equal((await record('name-only', { anything: [1, { deep: true }] })).is_compliant, true);
    assert.equal((await record('rules-only', { age: 30, name: 'Ada' })).is_compliant, true);
    assert.equal((await record('mixed', { age: 12, name: 'Bo' })).is_compliant, false);
    const notObject = await attest<ErrorBody>(server, 'acme', 'flow', 'typed', 'custom', {
      attestation_name: 'person',
      type_name: 'name-only',
      attestation_data: [1, 2],
    });
    assert.equal(notObject.status, 400, notObject.text);
    assert.deepEqual(notObject.body, {
      errors: { attestation_data: 'Input should be a valid dictionary [input: [1,2]]' },
      message: INVALID,
    });
  });

  it('8.1.4: a trail name is checked against the name pattern: foo?$bar is refused, naming the value, and nothing is begun', async () => {
    const refused = await server.multipart('PUT', '/api/v2/trails/acme/flow', {
      data_json: JSON.stringify({ name: 'foo?$bar' }),
    });
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body, {
      errors: { name: "String should match pattern '^[a-zA-Z0-9][a-zA-Z0-9._~-]*$' [input: foo?$bar]" },
      message: INVALID,
    });
    const tooLong = await server.multipart('PUT', '/api/v2/trails/acme/flow', {
      data_json: JSON.stringify({ name: 'a'.repeat(256) }),
    });
    assert.equal(tooLong.status, 400);
    assert.deepEqual(tooLong.body, {
      errors: { name: `String should have at most 255 characters [input: ${'a'.repeat(256)}]` },
      message: INVALID,
    });
    const trails = (await server.get<{ data: Trail[] }>('/api/v2/trails/acme/flow?page=1&per_page=100')).body.data;
    assert.deepEqual(
      trails.map((trail) => trail.name).filter((name) => name.startsWith('foo') || name.startsWith('aaa')),
      [],
    );
    const longest = 'a'.repeat(255);
    const begun = await server.multipart('PUT', '/api/v2/trails/acme/flow', {
      data_json: JSON.stringify({ name: `v1.2_3~rc-${longest.slice(10)}` }),
    });
    assert.equal(begun.status, 201, begun.text);
  });
});
