// What reference §8.4 says existing operations also take: the membership audit log's query
// (page, per_page, search, event_type, role, source, from_timestamp, to_timestamp, sort_by,
// sort_dir), `include_scaling` on an environment's PATCH, `trail` on the artifacts of a commit and
// `attestation_id` on an artifact by fingerprint.
import assert from 'node:assert/strict';
import type { Artifact, Attestation, Environment, IssuedApiKey, MembershipEvent } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';
import { attest, attestArtifact, beginTrail, commit, createEnvironment, createFlow, fingerprint } from './fixtures.ts';

describe('queries the hosted operations take (reference §8.4)', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ args: ['--org', 'acme'] });
  });
  after(async () => {
    await server?.stop();
  });

  describe('GET /membership-audit-log/{org}', () => {
    const LOG = '/api/v2/membership-audit-log/acme';
    let ciKey: string;
    before(async () => {
      for (const [name, privilege] of [
        ['ci', 'snapshotter'],
        ['bot', 'reader'],
      ] as const)
        assert.equal((await server.json('POST', '/api/v2/service-accounts/acme', { name, privilege })).status, 201);
      const key = await server.json<IssuedApiKey>('POST', '/api/v2/service-accounts/acme/ci/api-keys', {
        description: 'pipeline',
      });
      ciKey = key.body.id;
      assert.equal(
        (await server.json('PATCH', '/api/v2/service-accounts/acme/ci', { privilege: 'member' })).status,
        200,
      );
      assert.equal((await server.json('DELETE', '/api/v2/service-accounts/acme/bot')).status, 200);
    });
    const events = async (query: string) => {
      const reply = await server.get<MembershipEvent[]>(`${LOG}${query}`);
      assert.equal(reply.status, 200, `${query}: ${reply.text}`);
      return reply;
    };
    const described = (list: readonly MembershipEvent[]) =>
      list.map((event) => `${event.service_account} ${event.type} ${event.role}`);

    it('answers every event oldest first, each with its role then and its source', async () => {
      const all = await events('');
      assert.deepEqual(described(all.body), [
        'ci service_account_created snapshotter',
        'bot service_account_created reader',
        'ci api_key_created snapshotter',
        'ci service_account_updated member',
        'bot service_account_deleted reader',
      ]);
      assert.ok(all.body.every((event) => event.source === 'api'));
      assert.equal(all.headers['x-total-count'], '5');
    });

    it('filters by event_type (repeated), role, search, source and time', async () => {
      assert.deepEqual(described((await events('?event_type=api_key_created')).body), [
        'ci api_key_created snapshotter',
      ]);
      assert.deepEqual(
        described((await events('?event_type=service_account_deleted&event_type=api_key_created')).body),
        ['ci api_key_created snapshotter', 'bot service_account_deleted reader'],
      );
      assert.deepEqual(described((await events('?role=member')).body), ['ci service_account_updated member']);
      assert.deepEqual(described((await events('?search=BO')).body), [
        'bot service_account_created reader',
        'bot service_account_deleted reader',
      ]);
      assert.deepEqual(
        (await events(`?search=${ciKey.slice(0, 8)}`)).body.map((event) => event.api_key_id),
        [ciKey],
      );
      assert.deepEqual((await events('?source=ui')).body, []);
      assert.equal((await events('?source=api')).body.length, 5);
      const all = (await events('')).body;
      const [from, to] = [all[1].timestamp, all[3].timestamp];
      const window = (await events(`?from_timestamp=${from}&to_timestamp=${to}`)).body;
      assert.deepEqual(
        window,
        all.filter((event) => event.timestamp >= from && event.timestamp <= to),
      );
      assert.ok(
        window.length >= 3 && window[0].timestamp >= from,
        'the events from the second to the fourth, at least',
      );
    });

    it('sorts by sort_by and sort_dir, and pages with page and per_page', async () => {
      assert.deepEqual(described((await events('?sort_by=service_account&sort_dir=desc&per_page=3')).body), [
        'ci service_account_updated member',
        'ci api_key_created snapshotter',
        'ci service_account_created snapshotter',
      ]);
      const second = await events('?sort_by=timestamp&sort_dir=desc&page=2&per_page=2');
      assert.deepEqual(described(second.body), [
        'ci api_key_created snapshotter',
        'bot service_account_created reader',
      ]);
      assert.deepEqual(
        [second.headers['x-total-count'], second.headers['x-total-pages'], second.headers['x-page']],
        ['5', '3', '2'],
      );
      for (const query of ['?event_type=joined', '?sort_dir=up', '?sort_by=privilege', '?role=owner', '?per_page=0'])
        assert.equal((await server.get(`${LOG}${query}`)).status, 400, query);
    });
  });

  it('PATCH /environments/{org}/{env}: accepts include_scaling, which has no effect and reads back false', async () => {
    await createEnvironment(server, 'acme', 'prod');
    const patched = await server.json('PATCH', '/api/v2/environments/acme/prod', {
      include_scaling: true,
      description: 'scaled',
    });
    assert.equal(patched.status, 200, patched.text);
    const environment = (await server.get<Environment>('/api/v2/environments/acme/prod')).body;
    assert.deepEqual([environment.include_scaling, environment.description], [false, 'scaled']);
    assert.equal(
      (await server.json('PATCH', '/api/v2/environments/acme/prod', { include_scaling: 'yes' })).status,
      400,
    );
  });

  describe('artifacts', () => {
    const built = fingerprint('queries-app');
    const sha = commit('queries-app');
    before(async () => {
      await createFlow(server, 'acme', 'web');
      for (const trail of ['t1', 't2']) {
        await beginTrail(server, 'acme', 'web', trail);
        await attestArtifact(server, 'acme', 'web', {
          fingerprint: built,
          filename: `app-${trail}`,
          git_commit: sha,
          trail_name: trail,
          template_reference_name: 'app',
        });
      }
    });

    it("GET .../commit_sha/{sha}?trail=: the commit's artifacts in that trail only", async () => {
      const all = await server.get<Artifact[]>(`/api/v2/artifacts/acme/web/commit_sha/${sha}`);
      assert.deepEqual(all.body.map((artifact) => artifact.trail_name).sort(), ['t1', 't2']);
      const inT1 = await server.get<Artifact[]>(`/api/v2/artifacts/acme/web/commit_sha/${sha}?trail=t1`);
      assert.deepEqual(
        inT1.body.map((artifact) => artifact.filename),
        ['app-t1'],
      );
      assert.deepEqual((await server.get(`/api/v2/artifacts/acme/web/commit_sha/${sha}?trail=t9`)).body, []);
    });

    it('GET .../fingerprint/{fp}?attestation_id=: the artifact that attestation is about', async () => {
      const reply = await attest(server, 'acme', 'web', 't1', 'generic', {
        attestation_name: 'scan',
        artifact_fingerprint: built,
      });
      assert.equal(reply.status, 201, reply.text);
      const id = (await server.get<Attestation[]>('/api/v2/attestations/acme/web/trail/t1/scan')).body[0]
        .attestation_id;
      const latest = await server.get<Artifact>(`/api/v2/artifacts/acme/web/fingerprint/${built}`);
      assert.equal(latest.body.trail_name, 't2', 'without it: the latest');
      const about = await server.get<Artifact>(`/api/v2/artifacts/acme/web/fingerprint/${built}?attestation_id=${id}`);
      assert.deepEqual([about.status, about.body.trail_name, about.body.filename], [200, 't1', 'app-t1']);
      const unknown = await server.get(`/api/v2/artifacts/acme/web/fingerprint/${built}?attestation_id=nope`);
      assert.deepEqual(
        [unknown.status, unknown.body],
        [
          404,
          {
            message: `Artifact with fingerprint '${built}' does not exist in flow 'web' belonging to organization 'acme'`,
          },
        ],
      );
      assert.equal(
        (await server.get(`/api/v2/artifacts/acme/web/fingerprint/${built}?attestation_id=${id}&trail=t2`)).status,
        404,
        'both narrow it',
      );
    });
  });
});
