// Artifacts (reference §2.4, spec endpoint 6, §6 items 26–29) and search (spec endpoint 10, §2.8, §6 item 46).
import assert from 'node:assert/strict';
import type { FromSchema } from 'json-schema-to-ts';
import type { latestCommit } from '../../shared/contract/artifacts.ts';
import type { Artifact, ErrorBody, SearchResult, Trail } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';
import { attest, attestArtifact, beginTrail, commit, createFlow, fingerprint, WORKED_TEMPLATE } from './fixtures.ts';

describe('artifacts and search', () => {
  let server: TestServer;
  const fpA = fingerprint('artifact-a');
  const fpB = fingerprint('artifact-b');
  const sha = commit('build-1');

  before(async () => {
    server = await startServer({ args: ['--org', 'acme', '--org', 'acme-shared'] });
    await createFlow(server, 'acme', 'app', WORKED_TEMPLATE);
    await beginTrail(server, 'acme', 'app', 'build-1');
  });
  after(async () => {
    await server?.stop();
  });

  it('attests an artifact into a trail: {"message":"OK"}, an artifact_creation_reported event, the slot filled', async () => {
    const reply = await server.json('POST', '/api/v2/artifacts/acme/app', {
      fingerprint: fpA,
      filename: 'app.tgz',
      git_commit: sha,
      git_commit_info: { sha1: sha, author: 'dev', message: 'build', timestamp: 1700000000, branch: 'main' },
      build_url: 'https://ci.example.test/1',
      commit_url: 'https://git.example.test/c/1',
      repo_url: 'https://git.example.test/app',
      repo_info: { name: 'app-repo', url: 'https://git.example.test/app' },
      trail_name: 'build-1',
      template_reference_name: 'cli',
      annotations: { owner: 'team' },
    });
    assert.equal(reply.status, 201);
    assert.deepEqual(reply.body, { message: 'OK' });
    const trail = (await server.get<Trail>('/api/v2/trails/acme/app/build-1')).body;
    const event = trail.events.at(-1);
    assert.ok(event, 'the trail has events');
    assert.equal(event.type, 'artifact_creation_reported');
    assert.equal(event.artifact_name, 'app.tgz');
    assert.equal(event.template_reference_name, 'cli');
    assert.equal(trail.compliance_status.artifacts_statuses.cli.artifact_fingerprint, fpA);
    assert.equal(
      (
        await server.json('POST', '/api/v2/artifacts/acme/app', {
          fingerprint: fpA,
          filename: 'app.tgz',
          git_commit: sha,
          trail_name: 'build-1',
          template_reference_name: 'cli',
        })
      ).status,
      200,
    );
  });

  it('accepts the same fingerprint under another template name in the same trail', async () => {
    const reply = await attestArtifact(server, 'acme', 'app', {
      fingerprint: fpA,
      filename: 'app.tgz',
      git_commit: sha,
      trail_name: 'build-1',
      template_reference_name: 'other',
    });
    assert.equal(reply.status, 201);
  });

  it('rejects a bad fingerprint and an invalid external URL entry (echoing the input)', async () => {
    const badFingerprint = await server.json<ErrorBody>('POST', '/api/v2/artifacts/acme/app', {
      fingerprint: 'xyz',
      filename: 'a',
    });
    assert.deepEqual(badFingerprint.body.errors, {
      fingerprint: "String should match pattern '^[a-f0-9]{64}$' [input: xyz]",
    });
    const badUrl = await server.json<ErrorBody>('POST', '/api/v2/artifacts/acme/app', {
      fingerprint: fpB,
      filename: 'a',
      external_urls: { 'bad.label': { fingerprint: fpB } },
    });
    assert.equal(badUrl.status, 400);
    assert.equal(badUrl.body.message, 'Input payload validation failed');
    assert.ok(JSON.stringify(badUrl.body.errors).includes('bad.label'));
    const noHref = await server.json<ErrorBody>('POST', '/api/v2/artifacts/acme/app', {
      fingerprint: fpB,
      filename: 'a',
      external_urls: { report: { fingerprint: fpB } },
    });
    assert.equal(noHref.status, 400);
    assert.deepEqual(
      noHref.body.errors,
      { 'external_urls.report.href': `Field required [input: {"fingerprint":"${fpB}"}]` },
      'the rejected entry is echoed, fingerprint and all (§6 item 28)',
    );
    assert.equal((await server.get(`/api/v2/artifacts/acme/app/fingerprint/${fpB}`)).status, 404, 'nothing stored');
  });

  it('places a legacy report (no trail) into a trail named after the commit, slot artifact', async () => {
    const legacySha = commit('legacy');
    await attestArtifact(server, 'acme', 'app', {
      fingerprint: fpB,
      filename: 'legacy.bin',
      git_commit: legacySha,
      build_url: 'b',
      commit_url: 'c',
      repo_url: 'r',
      commits_list: [],
    });
    const artifact = (await server.get<Artifact>(`/api/v2/artifacts/acme/app/fingerprint/${fpB}`)).body;
    assert.equal(artifact.trail_name, legacySha);
    assert.equal(artifact.template_reference_name, 'artifact');
    assert.equal(
      (await server.get<FromSchema<typeof latestCommit>>(`/api/v2/artifacts/acme/app/${fpB}/latest_commit`)).body
        .latest_commit,
      legacySha,
    );
  });

  it('gets an artifact by fingerprint prefix with every field clients require', async () => {
    const artifact = (
      await server.get<Artifact>(`/api/v2/artifacts/acme/app/fingerprint/${fpA.slice(0, 7)}?trail=build-1`)
    ).body;
    for (const field of [
      'filename',
      'flow_name',
      'trail_name',
      'template_reference_name',
      'fingerprint',
      'git_commit',
      'commit_url',
      'build_url',
      'html_url',
      'state',
    ] as const) {
      assert.equal(typeof artifact[field], 'string', field);
    }
    assert.equal(artifact.fingerprint, fpA);
    assert.equal(artifact.state, 'INCOMPLETE');
    assert.deepEqual(artifact.running, []);
    assert.deepEqual(artifact.exited, []);
    assert.equal(artifact.history?.[0].event, 'other reported');
    assert.match(
      artifact.html_url,
      new RegExp(
        `/acme/flows/app/artifacts/${fpA}\\?artifact_id=[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{8}$`,
      ),
    );
    assert.equal(artifact.template_reference_name, 'other', 'the newest match');
    const cli = (await server.get<Artifact[]>(`/api/v2/artifacts/acme/app/commit_sha/${sha}`)).body.find(
      (entry) => entry.template_reference_name === 'cli',
    );
    assert.deepEqual(cli?.annotations, { owner: 'team' }, 'attesting again keeps what the request did not carry');
  });

  it('follows its trail: attestations show in history and state becomes COMPLIANT', async () => {
    await attest(server, 'acme', 'app', 'build-1', 'generic', { attestation_name: 'bar' });
    await attest(server, 'acme', 'app', 'build-1', 'generic', { attestation_name: 'foo', artifact_fingerprint: fpA });
    const artifact = (await server.get<Artifact>(`/api/v2/artifacts/acme/app/fingerprint/${fpA}?trail=build-1`)).body;
    assert.equal(artifact.state, 'COMPLIANT');
    assert.ok(artifact.history?.some((entry) => entry.event === 'foo evidence received'));
  });

  it('answers 404 with the single-quoted message for an unknown fingerprint', async () => {
    await createFlow(server, 'acme-shared', 'get-artifact');
    const unknown = fingerprint('unknown');
    const reply = await server.get(`/api/v2/artifacts/acme-shared/get-artifact/fingerprint/${unknown}`);
    assert.equal(reply.status, 404);
    assert.deepEqual(reply.body, {
      message: `Artifact with fingerprint '${unknown}' does not exist in flow 'get-artifact' belonging to organization 'acme-shared'`,
    });
    assert.equal(
      (await server.get('/api/v2/artifacts/acme/app/fingerprint/abc')).status,
      400,
      'a prefix needs 5 hex characters',
    );
  });

  it('gets artifacts by commit as an array', async () => {
    const byCommit = (await server.get<Artifact[]>(`/api/v2/artifacts/acme/app/commit_sha/${sha}`)).body;
    assert.ok(Array.isArray(byCommit));
    assert.deepEqual([...new Set(byCommit.map((artifact) => artifact.fingerprint))], [fpA]);
    assert.deepEqual((await server.get(`/api/v2/artifacts/acme/app/commit_sha/${commit('none')}`)).body, []);
  });

  it('lists an org’s artifacts newest first, filtered by flow and repo, paged', async () => {
    const all = (await server.get<Artifact[]>('/api/v2/artifacts/acme?page=1&per_page=15')).body;
    assert.ok(Array.isArray(all));
    assert.equal(all.length, 3);
    assert.equal(all[0].fingerprint, fpB);
    for (const artifact of all) {
      assert.equal(typeof artifact.created_at, 'string');
      assert.equal(typeof artifact.last_modified_at, 'string');
      assert.ok(typeof artifact.git_commit === 'string' && artifact.git_commit.length >= 7);
    }
    assert.equal((await server.get<Artifact[]>('/api/v2/artifacts/acme?page=2&per_page=2')).body.length, 1);
    assert.equal(
      (await server.get<Artifact[]>('/api/v2/artifacts/acme?flow_name=app&repo_name=app-repo')).body.length,
      1,
    );
    assert.equal((await server.get<Artifact[]>('/api/v2/artifacts/acme?flow_name=app')).body.length, 3);
    assert.deepEqual((await server.get('/api/v2/artifacts/acme-shared')).body, []);
    const badFlow = await server.get('/api/v2/artifacts/acme?flow_name=-bad');
    assert.deepEqual(badFlow.body, {
      errors: { 'query.flow_name': "String should match pattern '^[a-zA-Z0-9][a-zA-Z0-9._~-]*$' [input: -bad]" },
      message: 'Input payload validation failed',
    });
    // The spec gives flow_name a pattern, so an empty one is refused as any other wrong value
    // (unlike a free-text filter such as repo_name, whose empty value filters nothing).
    const emptyFlow = await server.get('/api/v2/artifacts/acme?flow_name=');
    assert.equal(emptyFlow.status, 400, emptyFlow.text);
    assert.deepEqual((await server.get('/api/v2/artifacts/acme?repo_name=nope')).body, {
      message: "Repo 'nope' not found",
    });
    const noOrg = await server.get('/api/v2/artifacts/no-such-org');
    assert.equal(noOrg.status, 404);
    assert.deepEqual(noOrg.body, { message: 'Organization not found' });
  });

  it('searches by fingerprint and commit, full or prefix', async () => {
    const byFingerprint = (await server.get<SearchResult>(`/api/v2/search/acme/sha/${fpA}`)).body;
    assert.equal(byFingerprint.resolved_to.type, 'fingerprint');
    assert.equal(byFingerprint.resolved_to.full_match, fpA);
    assert.deepEqual(byFingerprint.resolved_to.fingerprints, { type: 'fingerprint', count: 1, matches: [fpA] });
    assert.ok(byFingerprint.artifacts.length >= 1);
    const item = byFingerprint.artifacts[0];
    for (const field of [
      'fingerprint',
      'name',
      'has_provenance',
      'git_commit',
      'pipeline',
      'flow',
      'trail',
      'template_reference_name',
      'build_url',
      'commit_url',
      'compliance_state',
      'running_in',
      'exited_from',
      'html_url',
      'api_url',
      'history',
    ]) {
      assert.ok(field in item, field);
    }
    assert.ok((item.history?.length ?? 0) >= 1);
    const byCommit = (await server.get<SearchResult>(`/api/v2/search/acme/sha/${sha.slice(0, 10)}`)).body;
    assert.equal(byCommit.resolved_to.type, 'commit');
    assert.equal(byCommit.resolved_to.full_match, sha);
  });

  it('answers 404 No matches and 400 too ambiguous', async () => {
    const none = await server.get('/api/v2/search/acme/sha/f040404f9fb3447ed0c8ad48c6af12d5e94513ca');
    assert.equal(none.status, 404);
    assert.deepEqual(none.body, { message: "No matches for 'f040404f9fb3447ed0c8ad48c6af12d5e94513ca'." });
    await createFlow(server, 'acme', 'ambiguous');
    await attestArtifact(server, 'acme', 'ambiguous', {
      fingerprint: `abcde0${'0'.repeat(58)}`,
      filename: 'x',
      git_commit: commit('amb1'),
    });
    await attestArtifact(server, 'acme', 'ambiguous', {
      fingerprint: `abcde1${'1'.repeat(58)}`,
      filename: 'y',
      git_commit: commit('amb2'),
    });
    const ambiguous = await server.get<ErrorBody>('/api/v2/search/acme/sha/abcde');
    assert.equal(ambiguous.status, 400);
    assert.match(ambiguous.body.message, /^Results for 'abcde' are too ambiguous/);
    const unique = await server.get<SearchResult>('/api/v2/search/acme/sha/abcde0');
    assert.equal(unique.status, 200);
    assert.equal(unique.body.resolved_to.full_match, `abcde0${'0'.repeat(58)}`);
    assert.equal((await server.get('/api/v2/search/acme/sha/abcd')).status, 400, 'at least 5 hex characters');
  });
});
