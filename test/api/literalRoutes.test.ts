// Hosted operations our `{name}` routes used to swallow (reference §8.4), each on its own literal
// path: every test names a record after the literal segment, so the answer proves which handler
// took the request (the record's own route would answer that record). And every operation of §8.4,
// documented with its answer's schema (the shapes built here marked inferred), answering 200 as its
// own operation documents it.
import assert from 'node:assert/strict';
import type { FromSchema } from 'json-schema-to-ts';
import type { attestationsByCommit, repoFilterOptions, tagOptions } from '../../shared/contract/catalogue.ts';
import type { Control, OpenApiDocument, Repo } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';
import { attest, attestArtifact, beginTrail, commit, createFlow, fingerprint, WORKED_TEMPLATE } from './fixtures.ts';

type ByCommit = FromSchema<typeof attestationsByCommit>;
type TagOptions = FromSchema<typeof tagOptions>;
type RepoFilterOptions = FromSchema<typeof repoFilterOptions>;
type SystemTypes = Array<{ name: string; attestation_type: string }>;

/** The operations of reference §8.4 served here, and whether the hosted shape of the answer is inferred. */
const CATALOGUE: Record<string, boolean> = {
  'GET /attestations/{org}/list_attestations_for_criteria': false,
  'GET /attestations/system-attestation-types': false,
  'GET /controls/{org}/tags': true,
  'GET /repos/{org}/tags': true,
  'GET /repos/{org}/filter-options': true,
  'GET /controls/{org}/{identifier}/versions': true,
  'GET /controls/{org}/{identifier}/versions/{version_number}': true,
  'GET /controls/{org}/{identifier}/decisions': true,
  'GET /controls/{org}/{identifier}/coverage': true,
  'GET /deployments/{org}': true,
  'GET /deployments/{org}/{env_name}/{fingerprint}': true,
  'GET /environments/{org}/{env_name}/deployments': true,
  'GET /environments/{org}/{env_name}/deployment_frequency': true,
  'GET /repos/{org}/{repo}/deployments': true,
  'GET /repos/{org}/{repo}/deployment-statistics': true,
  'GET /repos/{org}/live-artifacts/{repo_name}': true,
  'GET /builds/{org}': true,
  'GET /builds/{org}/statistics': true,
  'GET /organizations/{org}': true,
  // The hosted path names it {notification_number}; the same path's GET and DELETE name it {number},
  // and OpenAPI takes two names at one place of one path for two paths that are the same.
  'PUT /organizations/{org}/environments_notifications/{number}': false,
  'GET /artifacts/{org}/{flow_name}/{fingerprint}/audit_package': false,
};

describe('literal paths of the hosted catalogue win over our {name} routes (reference §8.4)', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ args: ['--org', 'acme', '--org', 'system-attestation-types'] });
  });
  after(async () => {
    await server?.stop();
  });

  it('documents each in openapi.json with the schema of its answer, and marks the shapes built here as inferred', async () => {
    const document = await server.get<OpenApiDocument>('/api/v2/openapi.json', { key: null });
    for (const [operation, inferred] of Object.entries(CATALOGUE)) {
      const [method, path] = operation.split(' ');
      const documented = document.body.paths[path]?.[method.toLowerCase()] as
        { responses?: Record<string, unknown>; 'x-shape'?: string } | undefined;
      assert.ok(documented?.responses?.['200'] !== undefined, `${operation}: documented with its answer`);
      assert.equal(documented['x-shape'], inferred ? 'inferred' : undefined, `${operation}: x-shape`);
    }
  });

  describe('GET /attestations/{org}/list_attestations_for_criteria', () => {
    const [c1, c2, c3] = [commit('criteria-1'), commit('criteria-2'), commit('criteria-3')];
    before(async () => {
      // A flow named like the literal segment: its own list would answer {data, _links, pagination}.
      await createFlow(server, 'acme', 'list_attestations_for_criteria');
      await createFlow(server, 'acme', 'shop', WORKED_TEMPLATE);
      await beginTrail(server, 'acme', 'shop', 'build-1', { git_commit_info: gitCommit(c1) });
      await beginTrail(server, 'acme', 'shop', 'build-2', { git_commit_info: gitCommit(c2) });
      await attest(server, 'acme', 'shop', 'build-1', 'generic', { attestation_name: 'bar', is_compliant: true });
      await attest(server, 'acme', 'shop', 'build-2', 'generic', { attestation_name: 'bar', is_compliant: false });
      // An attestation carrying its own commit speaks about that commit, whatever its trail's.
      await attest(server, 'acme', 'shop', 'build-2', 'junit', {
        attestation_name: 'bar',
        git_commit_info: gitCommit(c3),
        junit_results: [],
      });
      await attestArtifact(server, 'acme', 'shop', {
        fingerprint: fingerprint('criteria-cli'),
        filename: 'cli',
        git_commit: c2,
        trail_name: 'build-2',
        template_reference_name: 'cli',
      });
      await attest(server, 'acme', 'shop', 'build-2', 'generic', {
        attestation_name: 'foo',
        artifact_fingerprint: fingerprint('criteria-cli'),
        is_compliant: true,
      });
    });

    it('answers the attestations of each commit asked for, not the list of a flow named like the path', async () => {
      const query = `flow_name=shop&attestation_type=generic&attestation_name=bar&commit_list=${c1}&commit_list=${c2}`;
      const reply = await server.get<ByCommit>(`/api/v2/attestations/acme/list_attestations_for_criteria?${query}`);
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual(Object.keys(reply.body).sort(), [c1, c2].sort());
      assert.deepEqual(
        reply.body[c1].map((a) => [a.attestation_name, a.attestation_type, a.is_compliant, a.trail_name]),
        [['bar', 'generic', true, 'build-1']],
      );
      assert.deepEqual(
        reply.body[c2].map((a) => [a.attestation_name, a.is_compliant, a.trail_name]),
        [['bar', false, 'build-2']],
      );
      assert.match(reply.body[c1][0].attestation_id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{8}$/);
      assert.equal(typeof reply.body[c1][0].created_at, 'number');
      assert.equal('artifact_fingerprint' in reply.body[c1][0], false);
    });

    it("reads `slot.name` as an artifact's attestation, and keys each attestation by the commit it speaks about", async () => {
      const slot = await server.get<ByCommit>(
        `/api/v2/attestations/acme/list_attestations_for_criteria?flow_name=shop&attestation_name=cli.foo&commit_list=${c2}`,
      );
      assert.deepEqual(
        slot.body[c2].map((a) => [a.attestation_name, a.target_artifact, a.artifact_fingerprint]),
        [['foo', 'cli', fingerprint('criteria-cli')]],
      );
      const everyBar = await server.get<ByCommit>(
        '/api/v2/attestations/acme/list_attestations_for_criteria?flow_name=shop&attestation_name=bar',
      );
      assert.deepEqual(
        Object.fromEntries(
          Object.entries(everyBar.body).map(([sha, list]) => [sha, list.map((a) => a.attestation_type)]),
        ),
        { [c1]: ['generic'], [c2]: ['generic'], [c3]: ['junit'] },
      );
    });

    it('answers {} when nothing matches and 404 for a flow that does not exist', async () => {
      const none = await server.get<ByCommit>(
        `/api/v2/attestations/acme/list_attestations_for_criteria?flow_name=shop&commit_list=${commit('nothing')}`,
      );
      assert.deepEqual([none.status, none.body], [200, {}]);
      const missing = await server.get('/api/v2/attestations/acme/list_attestations_for_criteria?flow_name=nowhere');
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, { message: "Flow named 'nowhere' does not exist for organization 'acme'" });
    });
  });

  it('GET /attestations/system-attestation-types: the system types, also for an org named like the path', async () => {
    const literal = await server.get<SystemTypes>('/api/v2/attestations/system-attestation-types');
    assert.equal(literal.status, 200, literal.text);
    assert.ok(Array.isArray(literal.body), 'the types, not the org attestation list {data, _links}');
    assert.deepEqual(
      literal.body.map((type) => type.attestation_type),
      ['system:decision'],
    );
    const ours = await server.get<SystemTypes>('/api/v2/system-attestation-types/acme');
    assert.deepEqual(literal.body, ours.body);
  });

  it('GET /controls/{org}/tags: every tag key with its values, also with a control identified `tags`', async () => {
    for (const [identifier, tags] of [
      ['tags', { team: 'core', tier: '1' }],
      ['ctl-2', { team: 'edge' }],
      ['ctl-3', {}],
    ] as const) {
      assert.equal((await server.json('POST', '/api/v2/controls/acme', { identifier, name: identifier })).status, 201);
      if (Object.keys(tags).length > 0)
        assert.equal(
          (await server.json('PATCH', `/api/v2/tags/acme/control/${identifier}`, { set_tags: tags })).status,
          200,
        );
    }
    const reply = await server.get<TagOptions>('/api/v2/controls/acme/tags');
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(reply.body, { team: ['core', 'edge'], tier: ['1'] });
    // The control `tags` is still there, by the list.
    const listed = await server.get<{ controls: Control[] }>('/api/v2/controls/acme?search=tags');
    assert.deepEqual(
      listed.body.controls.map((control) => control.identifier),
      ['tags'],
    );
  });

  describe('repos', () => {
    before(async () => {
      await createFlow(server, 'acme', 'repo-flow');
      for (const [trail, name, id, provider] of [
        ['r1', 'tags', 'repo-tags', 'github'],
        ['r2', 'filter-options', 'repo-fo', 'gitlab'],
        ['r3', 'app', 'repo-app', 'github'],
      ] as const) {
        await beginTrail(server, 'acme', 'repo-flow', trail, {
          repo_info: { name, url: `https://git.example.test/${name}`, id, provider },
        });
      }
      for (const [id, tags] of [
        ['repo-tags', { lang: 'go' }],
        ['repo-app', { lang: 'ts', owner: 'web' }],
      ] as const)
        assert.equal((await server.json('PATCH', `/api/v2/tags/acme/repo/${id}`, { set_tags: tags })).status, 200);
    });

    it('GET /repos/{org}/tags: every tag key with its values, though a repo is named `tags`', async () => {
      const reply = await server.get<TagOptions>('/api/v2/repos/acme/tags');
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual(reply.body, { lang: ['go', 'ts'], owner: ['web'] });
      // The repo `tags` is still there, by the list.
      const listed = await server.get<{ repos: Repo[] }>('/api/v2/repos/acme?name=tags');
      assert.deepEqual(
        listed.body.repos.map((repo) => repo.id),
        ['repo-tags'],
      );
    });

    it('GET /repos/{org}/filter-options: names, providers and tags in use, though a repo is named `filter-options`', async () => {
      const reply = await server.get<RepoFilterOptions>('/api/v2/repos/acme/filter-options');
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual(reply.body, {
        names: ['app', 'filter-options', 'tags'],
        providers: ['github', 'gitlab'],
        tags: { lang: ['go', 'ts'], owner: ['web'] },
      });
    });
  });

  describe('every operation of reference §8.4 reaches its own handler', () => {
    const walkFingerprint = fingerprint('walk');
    let actionNumber = 0;
    before(async () => {
      await createFlow(server, 'acme', 'walk-flow');
      await beginTrail(server, 'acme', 'walk-flow', 'walk-trail');
      await attestArtifact(server, 'acme', 'walk-flow', {
        fingerprint: walkFingerprint,
        filename: 'walk',
        git_commit: commit('walk'),
        trail_name: 'walk-trail',
        template_reference_name: 'walk',
        repo_info: { name: 'walk-repo', url: 'https://git.example.test/walk-repo' },
      });
      assert.equal(
        (await server.json('PUT', '/api/v2/environments/acme', { name: 'walk-env', type: 'server', description: 'w' }))
          .status,
        201,
      );
      const report = { artifacts: [{ digests: { walk: walkFingerprint }, creationTimestamp: 1_700_000_000 }] };
      assert.equal((await server.json('PUT', '/api/v2/environments/acme/walk-env/report/server', report)).status, 200);
      assert.equal(
        (await server.json('POST', '/api/v2/controls/acme', { identifier: 'walk-ctl', name: 'walk' })).status,
        201,
      );
      const action = await server.json<{ number: number }>(
        'PUT',
        '/api/v2/organizations/acme/environments_notifications',
        {
          name: 'walk-action',
          targets: [{ type: 'EMAIL', emails: ['ops@example.test'] }],
          environments: ['walk-env'],
          triggers: ['ON_STARTED_ARTIFACT'],
        },
      );
      assert.equal(action.status, 201, action.text);
      actionNumber = action.body.number;
    });

    it('answers 200 with the answer its own operation documents, never an unknown route or a {name} route', async () => {
      // The harness checks each answer against the schema of the operation its literal path names:
      // an answer of a `{name}` route (a flow, control or repo of that name, or its 404) would not pass as a 200.
      const requests: Record<string, [string, unknown?]> = {
        'GET /attestations/{org}/list_attestations_for_criteria': [
          '/attestations/acme/list_attestations_for_criteria?flow_name=walk-flow',
        ],
        'GET /attestations/system-attestation-types': ['/attestations/system-attestation-types'],
        'GET /controls/{org}/tags': ['/controls/acme/tags'],
        'GET /repos/{org}/tags': ['/repos/acme/tags'],
        'GET /repos/{org}/filter-options': ['/repos/acme/filter-options'],
        'GET /controls/{org}/{identifier}/versions': ['/controls/acme/walk-ctl/versions'],
        'GET /controls/{org}/{identifier}/versions/{version_number}': ['/controls/acme/walk-ctl/versions/1'],
        'GET /controls/{org}/{identifier}/decisions': ['/controls/acme/walk-ctl/decisions'],
        'GET /controls/{org}/{identifier}/coverage': ['/controls/acme/walk-ctl/coverage'],
        'GET /deployments/{org}': ['/deployments/acme'],
        'GET /deployments/{org}/{env_name}/{fingerprint}': [`/deployments/acme/walk-env/${walkFingerprint}`],
        'GET /environments/{org}/{env_name}/deployments': ['/environments/acme/walk-env/deployments'],
        'GET /environments/{org}/{env_name}/deployment_frequency': ['/environments/acme/walk-env/deployment_frequency'],
        'GET /repos/{org}/{repo}/deployments': ['/repos/acme/walk-repo/deployments'],
        'GET /repos/{org}/{repo}/deployment-statistics': ['/repos/acme/walk-repo/deployment-statistics'],
        'GET /repos/{org}/live-artifacts/{repo_name}': ['/repos/acme/live-artifacts/walk-repo'],
        'GET /builds/{org}': ['/builds/acme'],
        'GET /builds/{org}/statistics': ['/builds/acme/statistics'],
        'GET /organizations/{org}': ['/organizations/acme'],
        'PUT /organizations/{org}/environments_notifications/{number}': [
          `/organizations/acme/environments_notifications/${actionNumber}`,
          {
            name: 'walk-action',
            targets: [{ type: 'EMAIL', emails: ['ops@example.test'] }],
            environments: ['walk-env'],
            triggers: ['ON_EXITED_ARTIFACT'],
          },
        ],
        'GET /artifacts/{org}/{flow_name}/{fingerprint}/audit_package': [
          `/artifacts/acme/walk-flow/${walkFingerprint}/audit_package`,
        ],
      };
      assert.deepEqual(Object.keys(requests).sort(), Object.keys(CATALOGUE).sort(), 'one request per operation');
      for (const [operation, [path, body]] of Object.entries(requests)) {
        const reply = await server.json(operation.split(' ')[0], `/api/v2${path}`, body);
        assert.equal(reply.status, 200, `${operation}: ${reply.text.slice(0, 300)}`);
      }
    });
  });
});

function gitCommit(sha: string): Record<string, unknown> {
  return { sha1: sha, message: 'm', author: 'a', branch: 'main', timestamp: 1_700_000_000 };
}
