// The fields of the hosted service's answers that clients read (reference §8.5), each filled from
// what the server stores and checked for its value in a real scenario, on either engine. The
// harness also holds every answer to the contract, where these fields are required.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import type { Artifact, Attestation, Flow, Snapshot, Trail } from './answers.ts';
import {
  attest,
  attestArtifact,
  beginTrail,
  commit,
  createEnvironment,
  createFlow,
  fingerprint,
  WORKED_TEMPLATE,
} from './fixtures.ts';
import { ENGINE, sharedPostgres, startServer, type TestServer } from './harness.ts';

type TrailEvent = Trail['events'][number];

/** A commit as a CI client reports it. */
function commitInfo(label: string, timestamp: number): Record<string, unknown> {
  const sha1 = commit(label);
  return {
    sha1,
    message: `${label}: the change`,
    author: 'Dev <dev@example.test>',
    branch: 'main',
    timestamp,
    url: `https://git.example.test/acme/app/commit/${sha1}`,
  };
}

const REPO = { name: 'acme/app', url: 'https://git.example.test/acme/app', id: 'repo-1', provider: 'git' };

/** One K8S report running each of `digests` in one pod started at `started`. */
function podsRunning(digests: Record<string, string>, started: number) {
  return {
    artifacts: Object.entries(digests).map(([name, digest], i) => ({
      podName: `pod-${i}`,
      namespace: 'prod',
      creationTimestamp: started,
      digests: { [name]: digest },
    })),
  };
}

describe('fields of hosted answers (reference §8.5)', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ args: ['--org', 'acme'] });
  });
  after(async () => {
    await server?.stop();
  });

  describe('attestation', () => {
    before(async () => {
      await createFlow(server, 'acme', 'scans');
      await beginTrail(server, 'acme', 'scans', 't1');
    });
    const latest = async (name: string): Promise<Attestation> => {
      const versions = (await server.get<Attestation[]>(`/api/v2/attestations/acme/scans/trail/t1/${name}`)).body;
      return versions[0];
    };

    it('counts a snyk attestation findings per result and level in processed_snyk_results', async () => {
      const reply = await attest(server, 'acme', 'scans', 't1', 'snyk', {
        attestation_name: 'container-scan',
        snyk_results: {
          schema_version: 1,
          tool: { name: 'scanner', version: '1.2.3' },
          results: [
            { high_count: 0, medium_count: 0, low_count: 0, high: [], medium: [], low: [] },
            { high_count: 2, medium_count: 1, low_count: 0, high: [{ id: 'h1' }, { id: 'h2' }], medium: [{ id: 'm' }] },
            { low: [{ id: 'l1' }, { id: 'l2' }, { id: 'l3' }] },
          ],
        },
      });
      assert.equal(reply.status, 201, reply.text);
      const snyk = await latest('container-scan');
      assert.deepEqual(snyk.processed_snyk_results, {
        schema_version: 1,
        tool: { name: 'scanner', version: '1.2.3' },
        results: [
          { high_count: 0, medium_count: 0, low_count: 0 },
          { high_count: 2, medium_count: 1, low_count: 0 },
          { high_count: 0, medium_count: 0, low_count: 3 },
        ],
      });
      assert.equal(snyk.is_compliant, false);
    });

    it('gives evidence_archive_fingerprint and has_audit_package from the evidence kept, null and false without', async () => {
      const evidence = 'the scanner report\n';
      const withFile = await attest(
        server,
        'acme',
        'scans',
        't1',
        'generic',
        { attestation_name: 'report' },
        { filename: 'report.txt', content: evidence },
      );
      assert.equal(withFile.status, 201, withFile.text);
      const kept = await latest('report');
      assert.equal(kept.evidence_archive_fingerprint, createHash('sha256').update(evidence).digest('hex'));
      assert.equal(kept.has_audit_package, true);
      assert.equal(kept.processed_snyk_results, null, 'only a snyk attestation has snyk results');

      assert.equal((await attest(server, 'acme', 'scans', 't1', 'generic', { attestation_name: 'bare' })).status, 201);
      const bare = await latest('bare');
      assert.equal(bare.evidence_archive_fingerprint, null);
      assert.equal(bare.has_audit_package, false);
    });
  });

  describe('trail', () => {
    const begun = commitInfo('begun', 1_700_000_000);
    const attested = commitInfo('attested', 1_700_000_100);
    const built = commitInfo('built', 1_700_000_200);
    let trail: Trail;
    let flow: Flow;
    let artifact: Artifact;
    const eventOf = (type: string): TrailEvent => {
      const event = trail.events.find((candidate) => candidate.type === type);
      assert.ok(event, `no ${type} event in ${trail.events.map((e) => e.type).join(', ')}`);
      return event;
    };
    before(async () => {
      await createFlow(server, 'acme', 'app', WORKED_TEMPLATE);
      await beginTrail(server, 'acme', 'app', 'main-1', {
        description: 'the first build',
        git_commit_info: begun,
        repo_info: REPO,
        user_data: { ticket: 7 },
        origin_url: 'https://ci.example.test/runs/1',
      });
      assert.equal(
        (
          await attest(server, 'acme', 'app', 'main-1', 'generic', {
            attestation_name: 'bar',
            git_commit_info: attested,
          })
        ).status,
        201,
      );
      await attestArtifact(server, 'acme', 'app', {
        fingerprint: fingerprint('cli-1'),
        filename: 'cli',
        git_commit: built.sha1,
        git_commit_info: built,
        repo_info: REPO,
        trail_name: 'main-1',
        template_reference_name: 'cli',
      });
      await createEnvironment(server, 'acme', 'prod');
      for (const running of [{ cli: fingerprint('cli-1') }, {}] as Array<Record<string, string>>) {
        const report = await server.json('PUT', '/api/v2/environments/acme/prod/report/K8S', podsRunning(running, 1));
        assert.equal(report.status, 200, report.text);
      }
      await beginTrail(server, 'acme', 'app', 'main-1', { description: 'built again', origin_url: 'https://ci/2' });
      trail = (await server.get<Trail>('/api/v2/trails/acme/app/main-1')).body;
      flow = (await server.get<Flow>('/api/v2/flows/acme/app')).body;
      artifact = (await server.get<Artifact>(`/api/v2/artifacts/acme/app/fingerprint/${fingerprint('cli-1')}`)).body;
    });

    it('names the org, flow and trail of every event', async () => {
      assert.equal(trail.events.length, 6, trail.events.map((event) => event.type).join(', '));
      for (const event of trail.events) {
        assert.equal(event.flow_id, flow.id, event.type);
        assert.equal(event.trail_id, trail.events[0].trail_id, event.type);
        assert.equal(event.org_id, trail.events[0].org_id, event.type);
      }
      await beginTrail(server, 'acme', 'app', 'main-2');
      const other = (await server.get<Trail>('/api/v2/trails/acme/app/main-2')).body.events[0];
      assert.equal(other.org_id, trail.events[0].org_id);
      assert.notEqual(other.trail_id, trail.events[0].trail_id);
    });

    it('keeps on trail_reported and trail_updated the commit, repository and trail data each reported', () => {
      const reported = eventOf('trail_reported');
      assert.deepEqual(reported.git_commit_info, begun);
      assert.deepEqual(reported.repo_info, REPO);
      assert.deepEqual(reported.trail_data_json, {
        name: 'main-1',
        description: 'the first build',
        git_commit_info: begun,
        repo_info: REPO,
        user_data: { ticket: 7 },
        origin_url: 'https://ci.example.test/runs/1',
        repo_ids: ['repo-1'],
        template_id: trail.compliance_status.flow_template_id,
      });
      const updated = eventOf('trail_updated');
      assert.equal(updated.git_commit_info, null);
      assert.equal(updated.repo_info, null);
      assert.deepEqual(updated.trail_data_json, {
        name: 'main-1',
        description: 'built again',
        origin_url: 'https://ci/2',
        template_id: trail.compliance_status.flow_template_id,
      });
      assert.deepEqual(trail.git_commit_info, begun, 'the trail keeps the commit it was begun with');
      assert.deepEqual(trail.repo_info, REPO);
    });

    it("gives an attestation event the attestation's commit and an artifact event the artifact's id and commit", async () => {
      const attestation = (await server.get<Attestation[]>('/api/v2/attestations/acme/app/trail/main-1/bar')).body[0];
      const reported = eventOf('trail_attestation_reported');
      assert.equal(reported.attestation_id, attestation.attestation_id);
      assert.deepEqual(reported.git_commit_info, attested);
      assert.equal(reported.repo_info, null);
      const created = eventOf('artifact_creation_reported');
      assert.equal(created.artifact_id, artifact.id);
      assert.equal(created.artifact_fingerprint, fingerprint('cli-1'));
      assert.equal(created.git_commit, built.sha1);
      assert.deepEqual(created.git_commit_info, built);
      assert.deepEqual(created.repo_info, REPO);
    });

    it('names the environment of the running events by id, with no commit', () => {
      const started = eventOf('artifact_started_running');
      const stopped = eventOf('artifact_stopped_running');
      assert.equal(typeof started.environment_id, 'string');
      assert.equal(stopped.environment_id, started.environment_id);
      assert.deepEqual([started.environment_name, started.snapshot_index, stopped.snapshot_index], ['prod', 1, 2]);
      for (const event of [started, stopped]) {
        assert.equal(event.git_commit_info, null);
        assert.equal(event.repo_info, null);
      }
    });

    it('says which template each artifact slot was evaluated against', () => {
      const templateId = trail.compliance_status.flow_template_id;
      assert.equal(typeof templateId, 'string');
      assert.deepEqual(
        Object.values(trail.compliance_status.artifacts_statuses).map((status) => status.flow_template_id),
        [templateId],
      );
    });

    it('answers git_commit_info and repo_info null without a commit, and fills what a client reads of a partial one', async () => {
      const bare = (await server.get<Trail>('/api/v2/trails/acme/app/main-2')).body;
      assert.equal(bare.git_commit_info, null);
      assert.equal(bare.repo_info, null);
      await beginTrail(server, 'acme', 'app', 'partial', { git_commit_info: { sha1: 'abcdef1', url: null } });
      assert.deepEqual((await server.get<Trail>('/api/v2/trails/acme/app/partial')).body.git_commit_info, {
        sha1: 'abcdef1',
        message: '',
        author: '',
        branch: null,
        timestamp: 0,
        url: null,
      });
      await beginTrail(server, 'acme', 'app', 'short', { git_commit_info: { sha1: 'abc' } });
      assert.equal(
        (await server.get<Trail>('/api/v2/trails/acme/app/short')).body.git_commit_info,
        null,
        'a sha1 shorter than 7 characters names no commit a client can read',
      );
    });
  });

  describe('snapshot', () => {
    const REPO_URL = 'https://git.example.test/acme/svc';
    const SLOT_TEMPLATE = 'version: 1\ntrail:\n  artifacts:\n    - name: app\n';
    const builds = [1, 2, 3].map((n) => ({
      trail: `v${n}`,
      fingerprint: fingerprint(`svc-${n}`),
      name: `reg/svc:${n}`,
      commit: commitInfo(`svc-${n}`, 1_700_000_000 + n * 1000),
    }));
    const commitUrl = (sha1: unknown) => `${REPO_URL}/commit/${String(sha1)}`;
    const runs = async (started: number, ...which: number[]) => {
      const digests = Object.fromEntries(which.map((n) => [builds[n - 1].name, builds[n - 1].fingerprint]));
      const reply = await server.json(
        'PUT',
        '/api/v2/environments/acme/stage/report/K8S',
        podsRunning({ ...digests, 'sidecar:1': fingerprint('sidecar') }, started),
      );
      assert.equal(reply.status, 200, reply.text);
      return (await server.get<Snapshot>('/api/v2/snapshots/acme/stage/-1')).body;
    };
    const artifactIn = (snapshot: Snapshot, n: number) => {
      const found = snapshot.artifacts.find((artifact) => artifact.fingerprint === builds[n - 1].fingerprint);
      assert.ok(found, `build ${n} in snapshot ${snapshot.index}`);
      return found;
    };
    /** The deployment_diff of build `current`, which replaced build `previous`. */
    const replaced = (previous: number, current: number, running: boolean) => ({
      diff_url: `${REPO_URL}/compare/${String(builds[previous - 1].commit.sha1)}...${String(builds[current - 1].commit.sha1)}`,
      previous_git_commit: builds[previous - 1].commit.sha1,
      previous_git_commit_url: commitUrl(builds[previous - 1].commit.sha1),
      previous_fingerprint: builds[previous - 1].fingerprint,
      previous_artifact_name: builds[previous - 1].name,
      previous_artifact_compliance_state: 'COMPLIANT',
      previous_running: running,
      previous_trail_name: builds[previous - 1].trail,
      previous_template_reference_name: 'app',
    });
    before(async () => {
      await createFlow(server, 'acme', 'svc', SLOT_TEMPLATE);
      for (const build of builds) {
        await beginTrail(server, 'acme', 'svc', build.trail);
        await attestArtifact(server, 'acme', 'svc', {
          fingerprint: build.fingerprint,
          filename: build.name,
          git_commit: build.commit.sha1,
          git_commit_info: build.commit,
          commit_url: commitUrl(build.commit.sha1),
          repo_url: REPO_URL,
          trail_name: build.trail,
          template_reference_name: 'app',
        });
      }
      await createEnvironment(server, 'acme', 'stage');
    });

    it('gives each flow its commit and the time from the commit to the first start in the environment', async () => {
      const first = await runs(1_700_010_000, 1);
      const app = artifactIn(first, 1);
      assert.deepEqual(app.flows[0].git_commit_info, builds[0].commit);
      assert.equal(app.flows[0].commit_lead_time, 1_700_010_000 - 1_700_001_000);
      assert.equal(app.commit_lead_time, app.flows[0].commit_lead_time);
      assert.equal(app.deployment_diff, null, 'the first deployment replaced nothing');
      const sidecar = first.artifacts.find((artifact) => artifact.fingerprint === fingerprint('sidecar'));
      assert.deepEqual(
        [sidecar?.flows, sidecar?.commit_lead_time, sidecar?.deployment_diff],
        [[], null, null],
        'an artifact no flow built has no commit to measure from',
      );
    });

    it('says what a started artifact replaced: the one of its flow and slot that stopped', async () => {
      const second = await runs(1_700_020_000, 2);
      assert.deepEqual(
        second.artifacts.map((artifact) => [artifact.fingerprint, artifact.annotation?.type]),
        [
          [builds[1].fingerprint, 'started'],
          [fingerprint('sidecar'), 'unchanged'],
          [builds[0].fingerprint, 'exited'],
        ],
      );
      const app = artifactIn(second, 2);
      const expected = replaced(1, 2, false);
      assert.deepEqual(app.deployment_diff, expected);
      assert.deepEqual(app.flows[0].deployment_diff, expected);
      assert.equal(app.commit_lead_time, 1_700_020_000 - 1_700_002_000);
      assert.equal(artifactIn(second, 1).deployment_diff, null, 'the one that left keeps what it had');
    });

    it('keeps deployment_diff and the first start while the artifact runs, and says when the replaced one runs on', async () => {
      // The pod of build 2 restarted (a later creationTimestamp), and build 3 runs beside it.
      const third = await runs(1_700_030_000, 2, 3);
      const kept = artifactIn(third, 2);
      assert.equal(kept.annotation?.type, 'unchanged');
      assert.equal(kept.commit_lead_time, 1_700_020_000 - 1_700_002_000, 'measured from its first start');
      assert.equal(kept.deployment_diff?.previous_fingerprint, builds[0].fingerprint);
      const canary = artifactIn(third, 3);
      assert.deepEqual(canary.deployment_diff, replaced(2, 3, true));
    });
  });
});

/** Runs statements on the database behind a stopped server: its SQLite file, or its PostgreSQL database. */
async function onDatabase(dataDir: string, databaseUrl: string | undefined, statements: string[]): Promise<void> {
  if (databaseUrl === undefined) {
    const db = new DatabaseSync(join(dataDir, 'cev.sqlite'));
    try {
      for (const statement of statements) db.exec(statement);
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

describe('trail events written before migration 290', () => {
  let server: TestServer | undefined;
  after(async () => {
    await server?.stop();
  });

  it('get the commit, repository, ids and trail data of the rows they came from', async () => {
    const databaseUrl =
      ENGINE === 'postgres' ? await (await sharedPostgres()).createDatabase(`events290_${process.pid}`) : undefined;
    server = await startServer({
      args: ['--org', 'acme', ...(databaseUrl === undefined ? [] : ['--database', databaseUrl])],
    });
    await createFlow(server, 'acme', 'app', WORKED_TEMPLATE);
    await beginTrail(server, 'acme', 'app', 'old', {
      description: 'begun before',
      git_commit_info: commitInfo('old', 1_600_000_000),
      repo_info: REPO,
    });
    await attest(server, 'acme', 'app', 'old', 'generic', {
      attestation_name: 'bar',
      git_commit_info: commitInfo('old', 1_600_000_000),
    });
    await attestArtifact(server, 'acme', 'app', {
      fingerprint: fingerprint('old-cli'),
      filename: 'cli',
      git_commit: commit('old'),
      git_commit_info: commitInfo('old', 1_600_000_000),
      trail_name: 'old',
      template_reference_name: 'cli',
    });
    await attest(server, 'acme', 'app', 'old', 'generic', {
      attestation_name: 'foo',
      artifact_fingerprint: fingerprint('old-cli'),
      repo_info: REPO,
    });
    await createEnvironment(server, 'acme', 'prod');
    const report = await server.json(
      'PUT',
      '/api/v2/environments/acme/prod/report/K8S',
      podsRunning({ cli: fingerprint('old-cli') }, 1),
    );
    assert.equal(report.status, 200, report.text);
    const written = (await server.get<Trail>('/api/v2/trails/acme/app/old')).body.events;
    assert.deepEqual(
      written.map((event) => event.type),
      [
        'trail_reported',
        'trail_attestation_reported',
        'artifact_creation_reported',
        'artifact_attestation_reported',
        'artifact_started_running',
      ],
    );

    const dataDir = server.dataDir;
    await server.stop({ keepData: true });
    // The events as they were stored before: none of what the migration gives them.
    const added = ['git_commit_info', 'repo_info', 'trail_data_json', 'artifact_id', 'git_commit', 'environment_id'];
    await onDatabase(dataDir, databaseUrl, [
      databaseUrl === undefined
        ? `UPDATE trail_events SET data = json_remove(data, ${added.map((field) => `'$.${field}'`).join(', ')})`
        : `UPDATE trail_events SET data = (data::jsonb ${added.map((field) => `- '${field}'`).join(' ')})::text`,
      "DELETE FROM schema_migrations WHERE id = '290-trail-event-reports'",
    ]);
    server = await startServer({
      args: ['--org', 'acme', ...(databaseUrl === undefined ? [] : ['--database', databaseUrl])],
      dataDir,
    });
    const migrated = (await server.get<Trail>('/api/v2/trails/acme/app/old')).body.events;
    assert.deepEqual(migrated, written);
  });
});
