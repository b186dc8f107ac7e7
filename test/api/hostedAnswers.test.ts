// Where the hosted service's recorded answers differed from ours (reference §8.3, items 12 to 17):
// each test replays the recorded request and checks the answer the hosted service gave.
import assert from 'node:assert/strict';
import type { Artifact, Attestation, Environment } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';
import { attestArtifact, beginTrail, commit, createEnvironment, createFlow, fingerprint } from './fixtures.ts';

const INVALID = 'Input payload validation failed';

describe('hosted answers that differed (reference §8.3)', () => {
  let server: TestServer;
  const fp = fingerprint('hosted');
  before(async () => {
    server = await startServer({ args: ['--org', 'acme'] });
    await createFlow(
      server,
      'acme',
      'flow',
      'version: 1\ntrail:\n  attestations:\n    - name: review\n      type: generic\n',
    );
    await beginTrail(server, 'acme', 'flow', 'trail');
    await attestArtifact(server, 'acme', 'flow', {
      fingerprint: fp,
      filename: 'app',
      git_commit: commit('hosted'),
      trail_name: 'trail',
      template_reference_name: 'app',
      repo_info: { name: 'owner/app', url: 'https://git.example.test/owner/app', id: 'r-1', provider: 'github' },
    });
    await createEnvironment(server, 'acme', 'prod');
    const report = await server.json('PUT', '/api/v2/environments/acme/prod/report/K8S', {
      artifacts: [
        { podName: 'app-1', namespace: 'prod', creationTimestamp: 1_700_000_000, digests: { 'reg/app:1': fp } },
      ],
    });
    assert.equal(report.status, 200, report.text);
  });
  after(async () => {
    await server?.stop();
  });

  const override = (body: Record<string, unknown>) =>
    server.json('POST', '/api/v2/attestations/acme/flow/trail/trail/override', {
      attestation_name: 'review',
      reason: 'accepted risk',
      new_compliance_status: true,
      original_attestation_type: 'generic',
      ...body,
    });
  const reviews = async () =>
    (await server.get<Attestation[]>('/api/v2/attestations/acme/flow/trail/trail/review')).body.length;

  it('8.3.12: an override answers 200 "OK" and is recorded', async () => {
    const before = await reviews();
    const reply = await override({ origin_url: 'https://ci.example.test/1' });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.body, 'OK');
    assert.equal(await reviews(), before + 1);
  });

  it('8.3.13: an artifact is reported with filename "" and with description, is_compliant, template and user_data', async () => {
    const bare = fingerprint('no-name');
    const empty = await server.json('POST', '/api/v2/artifacts/acme/flow', {
      fingerprint: bare,
      filename: '',
      git_commit: commit('no-name'),
      trail_name: 'trail',
      template_reference_name: 'unnamed',
    });
    assert.equal(empty.status, 201, empty.text);
    assert.deepEqual(empty.body, { message: 'OK' });
    assert.equal((await server.get<Artifact>(`/api/v2/artifacts/acme/flow/fingerprint/${bare}`)).body.filename, '');

    const documented = fingerprint('documented');
    const full = await server.json('POST', '/api/v2/artifacts/acme/flow', {
      fingerprint: documented,
      filename: 'lib.jar',
      git_commit: commit('documented'),
      description: 'The library',
      is_compliant: true,
      template: ['lib', 'unit-test'],
      user_data: { team: 'blue', build: 7 },
    });
    assert.equal(full.status, 201, full.text);
    assert.deepEqual(full.body, { message: 'OK' });
    const read = (await server.get<Artifact>(`/api/v2/artifacts/acme/flow/fingerprint/${documented}`)).body;
    assert.deepEqual([read.filename, read.user_data], ['lib.jar', { team: 'blue', build: 7 }]);
  });

  it('8.3.14: empty query values are ignored (?trail=, ?repo_name=); an empty enumerated value (?type=, ?provider=) is 400', async () => {
    const artifact = await server.get<Artifact>(`/api/v2/artifacts/acme/flow/fingerprint/${fp}?trail=`);
    assert.equal(artifact.status, 200, artifact.text);
    assert.equal(artifact.body.fingerprint, fp);
    const all = (await server.get<Artifact[]>('/api/v2/artifacts/acme')).body.map((item) => item.fingerprint);
    const unfiltered = await server.get<Artifact[]>('/api/v2/artifacts/acme?repo_name=');
    assert.equal(unfiltered.status, 200, unfiltered.text);
    assert.deepEqual(
      unfiltered.body.map((item) => item.fingerprint),
      all,
    );
    assert.ok(all.length >= 2);
    const listedEnvironments = await server.get<Environment[]>('/api/v2/environments/acme?name=');
    assert.deepEqual(
      listedEnvironments.body.map((environment) => environment.name),
      ['prod'],
    );

    const type = await server.get('/api/v2/environments/acme?type=');
    assert.equal(type.status, 400);
    assert.deepEqual(type.body, {
      errors: {
        'query.type[0]':
          "Input should be 'K8S', 'ECS', 'S3', 'lambda', 'server', 'docker', 'azure-apps', 'cloud-run' or 'logical' [input: ]",
      },
      message: INVALID,
    });
    const provider = await server.get('/api/v2/repos/acme?provider=');
    assert.equal(provider.status, 400);
    assert.deepEqual(provider.body, {
      errors: {
        'query.provider':
          "Input should be 'github', 'gitlab', 'bitbucket', 'bitbucket_cloud', 'bitbucket_dc', 'azure-devops', 'azure_devops_services', 'azure_devops_server', 'circleci', 'git' or 'subversion' [input: ]",
      },
      message: INVALID,
    });
    // Empty values that mean something keep their own answers.
    assert.deepEqual((await server.get('/api/v2/flows/acme?search_by_name=')).body, {
      message: 'Empty string is not allowed for flow names.',
    });
    assert.deepEqual((await server.get('/api/v2/environments/acme/prod/events?start=')).body, {
      message: 'Invalid interval value: ',
    });
  });

  it('8.3.15: included_environments on an environment that is not logical is accepted, its names looked up', async () => {
    const named = await server.json('PUT', '/api/v2/environments/acme', {
      name: 'staging',
      type: 'K8S',
      description: 'staging',
      included_environments: ['prod'],
    });
    assert.equal(named.status, 201, named.text);
    assert.equal(named.body, 'OK');
    assert.deepEqual(
      (await server.get<Environment>('/api/v2/environments/acme/staging')).body.included_environments,
      [],
    );
    const unknown = await server.json('PUT', '/api/v2/environments/acme', {
      name: 'qa',
      type: 'K8S',
      description: 'qa',
      included_environments: ['nope'],
    });
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, { message: "Environment named 'nope' does not exist for organization 'acme'" });
    assert.equal((await server.get('/api/v2/environments/acme/qa')).status, 404, 'nothing created');
    const patched = await server.json('PATCH', '/api/v2/environments/acme/staging', {
      included_environments: ['prod'],
    });
    assert.equal(patched.status, 200, patched.text);
  });

  it("8.3.16: an unknown repo_name on environment events answers 404 Repo '<name>' not found", async () => {
    const unknown = await server.get('/api/v2/environments/acme/prod/events?repo_name=nope');
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, { message: "Repo 'nope' not found" });
    const alsoUnknown = await server.get('/api/v2/environments/acme/prod/events?repo_name=owner/app&repo_name=other');
    assert.deepEqual(alsoUnknown.body, { message: "Repo 'other' not found" });
    const known = await server.get<unknown[]>('/api/v2/environments/acme/prod/events?repo_name=owner/app');
    assert.equal(known.status, 200, known.text);
    assert.equal(known.body.length, 1);
  });

  it('8.3.17: an override with an empty origin_url is 400 and records nothing', async () => {
    const before = await reviews();
    const reply = await override({ origin_url: '' });
    assert.equal(reply.status, 400);
    assert.deepEqual(reply.body, {
      errors: { origin_url: 'Input should be a valid URL, input is empty [input: ]' },
      message: INVALID,
    });
    assert.equal(await reviews(), before);
  });
});
