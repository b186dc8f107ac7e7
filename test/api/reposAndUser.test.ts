// Repositories from repo_info (reference §2.14, §6 item 57) and the caller's default org (§2.18, §6 item 58).
import assert from 'node:assert/strict';
import type { FromSchema } from 'json-schema-to-ts';
import type { repo } from '../../shared/contract/accounts.ts';
import type { namedPage } from '../../shared/contract/pagination.ts';
import type { ErrorBody, IssuedApiKey, Repo } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';
import { attest, attestArtifact, beginTrail, commit, createFlow, fingerprint } from './fixtures.ts';

/** `GET /repos/{org}`: the repos under their own name, with the page counts (reference §1.4 style B). */
type RepoPage = FromSchema<ReturnType<typeof namedPage<'repos', typeof repo>>>;

describe('repos and user settings', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ args: ['--org', 'acme', '--org', 'empty'] });
    await createFlow(server, 'acme', 'flow');
    await beginTrail(server, 'acme', 'flow', 't', {
      repo_info: { name: 'app', url: 'https://git.example.test/app', id: 'r-1', provider: 'github' },
    });
    await attest(server, 'acme', 'flow', 't', 'generic', {
      attestation_name: 'a',
      repo_info: { name: 'lib', url: 'https://git.example.test/lib', provider: 'gitlab' },
    });
    await attestArtifact(server, 'acme', 'flow', {
      fingerprint: fingerprint('r'),
      filename: 'x',
      git_commit: commit('r'),
      trail_name: 't',
      template_reference_name: 'x',
      repo_info: { name: 'lib', url: 'https://bb.example.test/lib', provider: 'bitbucket' },
    });
  });
  after(async () => {
    await server?.stop();
  });

  it('lists the repos the org has sent, paged, filtered, with an empty list for an org without any', async () => {
    const all = (await server.get<RepoPage>('/api/v2/repos/acme')).body;
    assert.deepEqual(
      all.repos.map((repo) => `${repo.name}:${repo.provider}`),
      ['app:github', 'lib:gitlab', 'lib:bitbucket'],
    );
    assert.equal(all.total_count, 3);
    assert.equal(all.total_pages, 1);
    assert.ok(all._links.self.href.includes('/api/v2/repos/acme'));
    assert.deepEqual(
      (await server.get<RepoPage>('/api/v2/repos/acme?provider=github')).body.repos.map((repo) => repo.id),
      ['r-1'],
    );
    const paged = (await server.get<RepoPage>('/api/v2/repos/acme?page=2&per_page=2')).body;
    assert.equal(paged.repos.length, 1);
    assert.equal(paged.total_pages, 2);
    const none = (await server.get<RepoPage>('/api/v2/repos/empty')).body;
    assert.deepEqual(none.repos, []);
    assert.equal(none.total_count, 0);
  });

  it('gets a repo by name, 404s an unknown one and asks for the provider when a name is ambiguous', async () => {
    const app = (await server.get<Repo>('/api/v2/repos/acme/app')).body;
    assert.deepEqual(
      [app.id, app.name, app.url, app.provider],
      ['r-1', 'app', 'https://git.example.test/app', 'github'],
    );
    const missing = await server.get('/api/v2/repos/acme/non-existing');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { message: "Repo 'non-existing' not found" });
    const ambiguous = await server.get<ErrorBody>('/api/v2/repos/acme/lib');
    assert.equal(ambiguous.status, 400);
    assert.match(
      ambiguous.body.message,
      /^Multiple repos named 'lib' exist \(gitlab, bitbucket\)\. Specify the 'provider'/,
    );
    assert.equal(
      (await server.get<Repo>('/api/v2/repos/acme/lib?provider=gitlab')).body.url,
      'https://git.example.test/lib',
    );
  });

  it('sets the default org for a member, and answers 403 Access denied otherwise', async () => {
    const denied = await server.json('PUT', '/api/v2/user/non-existing-org-abc123', null);
    assert.equal(denied.status, 403);
    assert.deepEqual(denied.body, { message: 'Access denied to /api/v2/user/non-existing-org-abc123' });
    assert.equal((await server.json('PUT', '/api/v2/user/empty', null)).status, 200);
    assert.deepEqual((await server.get('/api/v2/user/default-org')).body, { default_org_name: 'empty' });
    await server.json('POST', '/api/v2/service-accounts/acme', { name: 'bot', privilege: 'reader' });
    const { key } = (
      await server.json<IssuedApiKey>('POST', '/api/v2/service-accounts/acme/bot/api-keys', { description: 'k' })
    ).body;
    assert.deepEqual((await server.get('/api/v2/user/default-org', { key })).body, { default_org_name: 'acme' });
    const other = await server.json('PUT', '/api/v2/user/empty', null, { key });
    assert.deepEqual(other.body, { message: 'Access denied to /api/v2/user/empty' });
    assert.equal((await server.json('PUT', '/api/v2/user/acme', null, { key })).status, 200);
  });
});
