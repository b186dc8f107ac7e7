// Builds (reference §8.4): an artifact reported into a flow is a build. The org's builds newest
// first, paged and filtered as the artifact lists are (a flow archived leaves them), each in its
// trail's state; and their statistics over a window.
import assert from 'node:assert/strict';
import type { FromSchema } from 'json-schema-to-ts';
import type { build, buildStatistics } from '../../shared/contract/deployments.ts';
import type { linkedDataPage } from '../../shared/contract/pagination.ts';
import { startServer, type TestServer } from './harness.ts';
import { attest, attestArtifact, beginTrail, commit, createFlow, fingerprint } from './fixtures.ts';

type BuildPage = FromSchema<ReturnType<typeof linkedDataPage<typeof build>>>;
type BuildStatistics = FromSchema<typeof buildStatistics>;

const NEEDS_UNIT = 'version: 1\ntrail:\n  attestations:\n    - name: unit\n      type: generic\n';

describe('builds (reference §8.4)', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ args: ['--org', 'acme'] });
    await createFlow(server, 'acme', 'web');
    await createFlow(server, 'acme', 'api', NEEDS_UNIT);
    await createFlow(server, 'acme', 'old');
    for (const [flow, trail] of [
      ['web', 't1'],
      ['web', 't2'],
      ['api', 't1'],
      ['old', 't1'],
    ] as const)
      await beginTrail(server, 'acme', flow, trail);
    for (const [flow, trail, name, repo] of [
      ['web', 't1', 'w1', 'r1'],
      ['web', 't2', 'w2', 'r1'],
      ['old', 't1', 'o1', 'r1'],
      ['api', 't1', 'a1', 'r2'],
      ['api', 't1', 'a2', undefined],
    ] as const) {
      await attestArtifact(server, 'acme', flow, {
        fingerprint: fingerprint(name),
        filename: name,
        git_commit: commit(name),
        trail_name: trail,
        template_reference_name: name,
        build_url: `https://ci.example.test/${name}`,
        commit_url: `https://git.example.test/${name}`,
        ...(repo === undefined ? {} : { repo_info: { name: repo, url: `https://git.example.test/${repo}` } }),
      });
    }
    const failed = await attest(server, 'acme', 'web', 't2', 'generic', {
      attestation_name: 'qa',
      is_compliant: false,
    });
    assert.equal(failed.status, 201, failed.text);
    assert.equal((await server.json('PUT', '/api/v2/flows/acme/old/archive', null)).status, 200);
  });
  after(async () => {
    await server?.stop();
  });

  const names = (page: BuildPage): string[] =>
    page.data.map((item) => ('artifact_name' in item ? item.artifact_name : '?'));

  it("GET /builds/{org}: the live flows' artifacts, newest first, each in its trail's state, paged", async () => {
    const all = await server.get<BuildPage>('/api/v2/builds/acme');
    assert.equal(all.status, 200, all.text);
    assert.deepEqual(names(all.body), ['a2', 'a1', 'w2', 'w1']);
    assert.deepEqual(all.body.pagination, { total: 4, page: 1, per_page: 20, page_count: 1 });
    const [a2, , w2, w1] = all.body.data.map((item) => {
      assert.ok('state' in item, 'a build, not a placeholder');
      return item;
    });
    assert.deepEqual([a2.state, w2.state, w1.state], ['INCOMPLETE', 'NON-COMPLIANT', 'COMPLIANT']);
    assert.deepEqual(
      [w1.flow_name, w1.trail_name, w1.fingerprint, w1.git_commit, w1.build_url, w1.repo_name, a2.repo_name],
      ['web', 't1', fingerprint('w1'), commit('w1'), 'https://ci.example.test/w1', 'r1', null],
    );
    assert.match(w1.html_url, /\/acme\/flows\/web\/artifacts\/[0-9a-f]{64}\?artifact_id=/);
    const second = (await server.get<BuildPage>('/api/v2/builds/acme?page=2&per_page=3')).body;
    assert.deepEqual([names(second), second.pagination], [['w1'], { total: 4, page: 2, per_page: 3, page_count: 2 }]);
  });

  it('GET /builds/{org}: of a flow, of a repo, of both; an unknown flow or repo is 404', async () => {
    const of = async (query: string) => (await server.get<BuildPage>(`/api/v2/builds/acme?${query}`)).body;
    const web = await of('flow_name=web');
    assert.deepEqual([names(web), web.pagination.total], [['w2', 'w1'], 2]);
    const repo = await of('repo_name=r1');
    assert.deepEqual([names(repo), repo.pagination.total], [['w2', 'w1'], 2], 'the archived flow left r1 too');
    const both = await of('flow_name=api&repo_name=r2');
    assert.deepEqual([names(both), both.pagination.total], [['a1'], 1]);
    assert.deepEqual((await server.get('/api/v2/builds/acme?repo_name=nope')).body, {
      message: "Repo 'nope' not found",
    });
    assert.equal((await server.get('/api/v2/builds/acme?flow_name=old')).status, 404);
  });

  it("GET /builds/{org}/statistics: a window's builds, in all and per flow, by compliance", async () => {
    const statistics = await server.get<BuildStatistics>('/api/v2/builds/acme/statistics');
    assert.equal(statistics.status, 200, statistics.text);
    const { flows, first_built_at, last_built_at, ...counts } = statistics.body;
    assert.deepEqual(counts, {
      from_timestamp: null,
      to_timestamp: null,
      builds: 4,
      compliant: 1,
      non_compliant: 1,
      incomplete: 2,
    });
    assert.deepEqual(flows, [
      { flow_name: 'api', builds: 2, compliant: 0, non_compliant: 0, incomplete: 2 },
      { flow_name: 'web', builds: 2, compliant: 1, non_compliant: 1, incomplete: 0 },
    ]);
    const all = (await server.get<BuildPage>('/api/v2/builds/acme')).body.data;
    const times = all.map((item) => ('built_at' in item ? item.built_at : 0));
    assert.deepEqual([first_built_at, last_built_at], [Math.min(...times), Math.max(...times)]);
    const early = (await server.get<BuildStatistics>(`/api/v2/builds/acme/statistics?to_timestamp=${first_built_at}`))
      .body;
    assert.deepEqual([early.builds, early.compliant, early.to_timestamp], [1, 1, first_built_at]);
    const refused = await server.get(
      `/api/v2/builds/acme/statistics?from_timestamp=${last_built_at}&to_timestamp=${first_built_at}`,
    );
    assert.equal(refused.status, 400);
  });
});
