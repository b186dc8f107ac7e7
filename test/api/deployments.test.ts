// Deployments (reference §8.4): an artifact starting to run in an environment, as its snapshots
// record it. The org's, an environment's and a repo's lists, the latest of an artifact, the
// deployment frequency, a repo's statistics and its artifacts running now, all from one story of
// reports: prod runs A, then A and C, staging runs B, prod runs B and C (A exits), then A, B and C.
import assert from 'node:assert/strict';
import type { FromSchema } from 'json-schema-to-ts';
import type {
  deployment,
  deploymentFrequency,
  liveArtifact,
  repoDeploymentStatistics,
} from '../../shared/contract/deployments.ts';
import type { linkedDataPage } from '../../shared/contract/pagination.ts';
import type { ErrorBody } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';
import { attestArtifact, beginTrail, commit, createEnvironment, createFlow, fingerprint } from './fixtures.ts';

type Deployment = FromSchema<typeof deployment>;
type DeploymentPage = FromSchema<ReturnType<typeof linkedDataPage<typeof deployment>>>;
type Frequency = FromSchema<typeof deploymentFrequency>;
type RepoStatistics = FromSchema<typeof repoDeploymentStatistics>;
type LiveArtifact = FromSchema<typeof liveArtifact>;

const [A, B, C] = [fingerprint('deploy-a'), fingerprint('deploy-b'), fingerprint('deploy-c')];
const NAMES: Record<string, string> = { [A]: 'a', [B]: 'b', [C]: 'c' };

/** Each deployment as `<environment>#<snapshot> <artifact>`. */
function listed(deployments: readonly Deployment[]): string[] {
  return deployments.map((d) => `${d.environment_name}#${d.snapshot_index} ${NAMES[d.fingerprint] ?? d.fingerprint}`);
}

describe('deployments (reference §8.4)', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ args: ['--org', 'acme'] });
    await createFlow(server, 'acme', 'web');
    await createFlow(server, 'acme', 'api');
    for (const [flow, trail, fp, repo] of [
      ['web', 't1', A, 'web-repo'],
      ['web', 't2', B, 'web-repo'],
      ['api', 't1', C, 'api-repo'],
    ] as const) {
      await beginTrail(server, 'acme', flow, trail);
      await attestArtifact(server, 'acme', flow, {
        fingerprint: fp,
        filename: `reg/${NAMES[fp]}:1`,
        git_commit: commit(fp),
        trail_name: trail,
        template_reference_name: NAMES[fp],
        repo_info: { name: repo, url: `https://git.example.test/${repo}`, provider: 'github' },
      });
    }
    await createEnvironment(server, 'acme', 'prod', 'server');
    await createEnvironment(server, 'acme', 'staging', 'server');
    const logical = await server.json('PUT', '/api/v2/environments/acme', {
      name: 'everywhere',
      type: 'logical',
      description: 'prod and staging',
      included_environments: ['prod', 'staging'],
    });
    assert.equal(logical.status, 201, logical.text);
    for (const [env, running] of [
      ['prod', [A]],
      ['prod', [A, C]],
      ['staging', [B]],
      ['prod', [B, C]],
      ['prod', [A, B, C]],
    ] as const) {
      const digests = Object.fromEntries(running.map((fp) => [NAMES[fp], fp]));
      const reply = await server.json('PUT', `/api/v2/environments/acme/${env}/report/server`, {
        artifacts: [{ digests, creationTimestamp: 1_700_000_000 }],
      });
      assert.equal(reply.status, 200, reply.text);
    }
  });
  after(async () => {
    await server?.stop();
  });

  it("GET /deployments/{org}: the org's starts in physical environments, newest first, paged and filtered", async () => {
    const all = await server.get<DeploymentPage>('/api/v2/deployments/acme');
    assert.equal(all.status, 200, all.text);
    assert.deepEqual(listed(all.body.data), ['prod#4 a', 'prod#3 b', 'staging#1 b', 'prod#2 c', 'prod#1 a']);
    assert.deepEqual(all.body.pagination, { total: 5, page: 1, per_page: 20, page_count: 1 });
    const first = all.body.data[0];
    assert.deepEqual(
      [first.environment_type, first.artifact_name, first.git_commit, first.flows, first.repo_names],
      ['server', 'a', commit(A), [{ flow_name: 'web', trail_name: 't1' }], ['web-repo']],
    );
    assert.equal(first.html_url, `${server.url}/acme/environments/prod/snapshots/4`);
    const second = await server.get<DeploymentPage>('/api/v2/deployments/acme?page=2&per_page=2');
    assert.deepEqual(listed(second.body.data), ['staging#1 b', 'prod#2 c']);
    assert.deepEqual(second.body.pagination, { total: 5, page: 2, per_page: 2, page_count: 3 });
    assert.ok(second.body._links?.next.href.endsWith('/api/v2/deployments/acme?page=3&per_page=2'));
    assert.deepEqual(
      listed((await server.get<DeploymentPage>('/api/v2/deployments/acme?environment_name=staging')).body.data),
      ['staging#1 b'],
    );
    const api = (await server.get<DeploymentPage>('/api/v2/deployments/acme?flow_name=api&per_page=1')).body;
    assert.deepEqual([listed(api.data), api.pagination.total], [['prod#2 c'], 1]);
    const since = first.deployed_at;
    assert.deepEqual(
      listed((await server.get<DeploymentPage>(`/api/v2/deployments/acme?from_timestamp=${since}`)).body.data),
      ['prod#4 a'],
    );
    const missing = await server.get('/api/v2/deployments/acme?environment_name=nowhere');
    assert.deepEqual(
      [missing.status, missing.body],
      [404, { message: "Environment named 'nowhere' does not exist for organization 'acme'" }],
    );
  });

  it("GET /environments/{org}/{env_name}/deployments: one environment's, a logical one's too", async () => {
    const prod = await server.get<DeploymentPage>('/api/v2/environments/acme/prod/deployments?per_page=3');
    assert.equal(prod.status, 200, prod.text);
    assert.deepEqual(listed(prod.body.data), ['prod#4 a', 'prod#3 b', 'prod#2 c']);
    assert.equal(prod.body.pagination.total, 4);
    const logical = await server.get<DeploymentPage>('/api/v2/environments/acme/everywhere/deployments');
    assert.deepEqual(
      logical.body.data.map((d) => NAMES[d.fingerprint]).sort(),
      ['a', 'a', 'b', 'c'],
      'the logical environment saw a start, b, c and a again',
    );
    assert.equal((await server.get('/api/v2/environments/acme/nowhere/deployments')).status, 404);
  });

  it('GET /deployments/{org}/{env_name}/{fingerprint}: the latest start of an artifact there', async () => {
    const latest = await server.get<Deployment>(`/api/v2/deployments/acme/prod/${A}`);
    assert.equal(latest.status, 200, latest.text);
    assert.deepEqual(listed([latest.body]), ['prod#4 a']);
    assert.deepEqual(
      (await server.get<Deployment>(`/api/v2/deployments/acme/prod/${A.slice(0, 10)}`)).body,
      latest.body,
    );
    const never = await server.get<ErrorBody>(`/api/v2/deployments/acme/staging/${A}`);
    assert.deepEqual(
      [never.status, never.body],
      [404, { message: `Artifact with fingerprint '${A}' has not been deployed to environment 'staging'` }],
    );
    assert.equal((await server.get(`/api/v2/deployments/acme/prod/not-hex`)).status, 400);
  });

  it('GET /environments/{org}/{env_name}/deployment_frequency: a window of days or weeks, each with its starts', async () => {
    const times = (await server.get<DeploymentPage>('/api/v2/environments/acme/prod/deployments')).body.data.map(
      (d) => d.deployed_at,
    );
    const from = Math.min(...times) - 1;
    const to = from + 3 * 86_400;
    const days = await server.get<Frequency>(
      `/api/v2/environments/acme/prod/deployment_frequency?from_timestamp=${from}&to_timestamp=${to}`,
    );
    assert.equal(days.status, 200, days.text);
    assert.deepEqual(
      days.body.buckets.map((bucket) => [bucket.from - from, bucket.to - from, bucket.count]),
      [
        [0, 86_400, 4],
        [86_400, 172_800, 0],
        [172_800, 259_200, 0],
      ],
    );
    assert.deepEqual([days.body.total, days.body.per_day, days.body.interval], [4, 4 / 3, 'day']);
    const recent = (await server.get<Frequency>('/api/v2/environments/acme/prod/deployment_frequency?interval=week'))
      .body;
    assert.deepEqual([recent.total, recent.buckets.length, recent.buckets.at(-1)?.count], [4, 5, 4]);
    assert.equal(recent.to_timestamp - recent.from_timestamp, 30 * 86_400);
    for (const query of ['interval=hour', `from_timestamp=${to}&to_timestamp=${from}`, 'from_timestamp=0']) {
      const refused = await server.get(`/api/v2/environments/acme/prod/deployment_frequency?${query}`);
      assert.equal(refused.status, 400, query);
    }
  });

  it("GET /repos/{org}/{repo}/deployments and .../deployment-statistics: the starts of a repo's artifacts", async () => {
    const repo = await server.get<DeploymentPage>('/api/v2/repos/acme/web-repo/deployments');
    assert.equal(repo.status, 200, repo.text);
    assert.deepEqual(listed(repo.body.data), ['prod#4 a', 'prod#3 b', 'staging#1 b', 'prod#1 a']);
    assert.deepEqual(
      listed((await server.get<DeploymentPage>('/api/v2/repos/acme/web-repo/deployments?page=2&per_page=3')).body.data),
      ['prod#1 a'],
    );
    const statistics = await server.get<RepoStatistics>('/api/v2/repos/acme/web-repo/deployment-statistics');
    assert.equal(statistics.status, 200, statistics.text);
    assert.deepEqual(
      [statistics.body.total, statistics.body.environments.map((e) => [e.environment_name, e.deployments])],
      [
        4,
        [
          ['prod', 3],
          ['staging', 1],
        ],
      ],
    );
    assert.equal(statistics.body.first_deployed_at, repo.body.data[3].deployed_at);
    assert.equal(statistics.body.last_deployed_at, repo.body.data[0].deployed_at);
    const none = await server.get<RepoStatistics>(
      `/api/v2/repos/acme/web-repo/deployment-statistics?to_timestamp=${repo.body.data[3].deployed_at - 1}`,
    );
    assert.deepEqual([none.body.total, none.body.first_deployed_at, none.body.environments], [0, null, []]);
    for (const path of ['nope/deployments', 'nope/deployment-statistics', 'live-artifacts/nope']) {
      const missing = await server.get(`/api/v2/repos/acme/${path}`);
      assert.deepEqual([missing.status, missing.body], [404, { message: "Repo 'nope' not found" }], path);
    }
  });

  it('GET /repos/{org}/live-artifacts/{repo_name}: what of the repo runs now, in each physical environment', async () => {
    const live = await server.get<LiveArtifact[]>('/api/v2/repos/acme/live-artifacts/web-repo');
    assert.equal(live.status, 200, live.text);
    assert.deepEqual(
      live.body.map(
        (a) => `${a.environment_name}#${a.snapshot_index} ${a.artifact_name} ${a.flow_name}/${a.trail_name}`,
      ),
      ['prod#4 a web/t1', 'prod#4 b web/t2', 'staging#1 b web/t2'],
    );
    const prodDeployments = (await server.get<DeploymentPage>('/api/v2/environments/acme/prod/deployments')).body.data;
    assert.equal(live.body[0].deployed_at, prodDeployments[0].deployed_at, 'a last started in prod#4');
    assert.deepEqual(
      (await server.get<LiveArtifact[]>('/api/v2/repos/acme/live-artifacts/api-repo')).body.map((a) => a.fingerprint),
      [C],
    );
  });
});
