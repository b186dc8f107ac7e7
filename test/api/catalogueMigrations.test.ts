// Migrations 280 to 282 on a database that already holds decisions, environment events and
// membership events: the decisions and deployments recorded before them list exactly as those
// recorded after, the numbering goes on from there, and each membership event has the role it had.
// The test records a story, takes the migrations back out of the database (their tables, triggers,
// column and rows in schema_migrations), restarts the server so that they run again on the rows
// already there, and compares every list with what it answered before.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import type { FromSchema } from 'json-schema-to-ts';
import type { controlVersion, listedDecision } from '../../shared/contract/catalogue.ts';
import type { deployment } from '../../shared/contract/deployments.ts';
import type { linkedDataPage } from '../../shared/contract/pagination.ts';
import type { Control } from './answers.ts';
import { ENGINE, sharedPostgres, startServer, type TestServer } from './harness.ts';
import { attestArtifact, beginTrail, commit, createEnvironment, createFlow, fingerprint } from './fixtures.ts';

type DeploymentPage = FromSchema<ReturnType<typeof linkedDataPage<typeof deployment>>>;
type DecisionPage = FromSchema<ReturnType<typeof linkedDataPage<typeof listedDecision>>>;
type ControlVersion = FromSchema<typeof controlVersion>;

const MIGRATIONS = ['280-control-versions-and-decisions', '281-deployments', '282-membership-roles'];
const TRIGGERS = [
  ['control_decision_numbered', 'attestations'],
  ['deployment_recorded', 'environment_events'],
];
const TABLES = ['control_versions', 'control_decision_counts', 'control_decisions', 'deployments', 'deployment_repos'];

/** Takes migrations 280 and 281 back out of the database behind a stopped server. */
async function withoutCatalogueMigrations(where: { dataDir: string; url?: string }): Promise<void> {
  const forget = `DELETE FROM schema_migrations WHERE id IN (${MIGRATIONS.map((id) => `'${id}'`).join(', ')})`;
  if (where.url === undefined) {
    const db = new DatabaseSync(join(where.dataDir, 'cev.sqlite'));
    for (const [trigger] of TRIGGERS) db.exec(`DROP TRIGGER ${trigger}`);
    for (const table of TABLES) db.exec(`DROP TABLE ${table}`);
    db.exec('ALTER TABLE membership_events DROP COLUMN role');
    db.exec(forget);
    db.close();
    return;
  }
  const client = new pg.Client({ connectionString: where.url });
  await client.connect();
  try {
    for (const [trigger, table] of TRIGGERS)
      await client.query(`DROP TRIGGER ${trigger} ON ${table}; DROP FUNCTION ${trigger}()`);
    for (const table of TABLES) await client.query(`DROP TABLE ${table}`);
    await client.query('ALTER TABLE membership_events DROP COLUMN role');
    await client.query(forget);
  } finally {
    await client.end();
  }
}

describe('migrations 280 to 282 on a store that already has decisions, environment and membership events', function () {
  this.timeout(120_000);
  let server: TestServer | undefined;
  let url: string | undefined;
  let evidence: string | undefined;

  const start = async (dataDir?: string): Promise<TestServer> => {
    // One public URL for both runs: the answers' links must not differ by the port.
    const args = ['--org', 'acme', '--public-url', 'http://cev.example.test'];
    if (url !== undefined) args.push('--database', url, '--evidence', evidence!);
    server = await startServer({ args, dataDir });
    return server;
  };

  before(async () => {
    if (ENGINE === 'postgres') {
      url = await (await sharedPostgres()).createDatabase(`catalogue_${process.pid}`);
      evidence = mkdtempSync(join(tmpdir(), 'cev-evidence-'));
    }
  });
  after(async () => {
    await server?.stop();
    if (evidence !== undefined) rmSync(evidence, { recursive: true, force: true });
  });

  it('lists what was recorded before them as it was, and numbers what comes after it on', async () => {
    const first = await start();
    await createFlow(first, 'acme', 'web');
    await beginTrail(first, 'acme', 'web', 't1');
    assert.equal((await first.json('POST', '/api/v2/controls/acme', { identifier: 'ctl', name: 'one' })).status, 201);
    for (const name of ['two', 'three'])
      assert.equal((await first.json<Control>('PUT', '/api/v2/controls/acme/ctl', { name })).status, 200);
    const decide = async (on: TestServer, compliant: boolean) => {
      const reply = await on.multipart('POST', '/api/v2/attestations/acme/web/trail/t1/system', {
        data_json: JSON.stringify({
          attestation_name: 'decision',
          type_name: 'decision',
          control: 'ctl',
          attestation_data: { is_compliant: compliant },
        }),
      });
      assert.equal(reply.status, 201, reply.text);
    };
    for (const compliant of [true, false, true]) await decide(first, compliant);
    const fps = ['m1', 'm2', 'm3', 'm4'].map((label) => fingerprint(label));
    for (const [i, fp] of fps.entries())
      await attestArtifact(first, 'acme', 'web', {
        fingerprint: fp,
        filename: `app-${i}`,
        git_commit: commit(fp),
        trail_name: 't1',
        template_reference_name: `app-${i}`,
        repo_info: { name: 'web-repo', url: 'https://git.example.test/web-repo', provider: 'github' },
      });
    for (const env of ['prod', 'staging']) await createEnvironment(first, 'acme', env, 'server');
    const report = async (on: TestServer, env: string, running: string[]) => {
      const reply = await on.json('PUT', `/api/v2/environments/acme/${env}/report/server`, {
        artifacts: [{ digests: Object.fromEntries(running.map((fp, i) => [`app-${i}`, fp])), creationTimestamp: 1 }],
      });
      assert.equal(reply.status, 200, reply.text);
    };
    await report(first, 'prod', [fps[0]]);
    await report(first, 'staging', [fps[1]]);
    await report(first, 'prod', [fps[0], fps[2]]);

    assert.equal(
      (await first.json('POST', '/api/v2/service-accounts/acme', { name: 'ci', privilege: 'snapshotter' })).status,
      201,
    );
    assert.equal(
      (await first.json('POST', '/api/v2/service-accounts/acme/ci/api-keys', { description: 'k' })).status,
      201,
    );
    assert.equal((await first.json('PATCH', '/api/v2/service-accounts/acme/ci', { privilege: 'member' })).status, 200);
    assert.equal(
      (await first.json('POST', '/api/v2/service-accounts/acme/ci/api-keys', { description: 'l' })).status,
      201,
    );

    const lists = [
      '/api/v2/membership-audit-log/acme',
      '/api/v2/deployments/acme?per_page=2',
      '/api/v2/deployments/acme?page=2&per_page=2',
      '/api/v2/environments/acme/prod/deployments',
      '/api/v2/repos/acme/web-repo/deployments',
      '/api/v2/controls/acme/ctl/decisions?per_page=2',
      '/api/v2/controls/acme/ctl/decisions?page=2&per_page=2',
    ];
    const answers = async (on: TestServer) => Promise.all(lists.map(async (path) => (await on.get(path)).body));
    const before = await answers(first);
    assert.deepEqual(
      (before[0] as Array<{ role: string }>).map((event) => event.role),
      ['snapshotter', 'snapshotter', 'member', 'member'],
    );
    const versions = (await first.get<ControlVersion[]>('/api/v2/controls/acme/ctl/versions')).body;
    assert.deepEqual(
      versions.map((version) => version.name),
      ['one', 'two', 'three'],
    );

    await first.stop({ keepData: true });
    await withoutCatalogueMigrations({ dataDir: first.dataDir, url });
    const second = await start(first.dataDir);
    assert.deepEqual(await answers(second), before);
    // Only the current version was kept before migration 280.
    assert.deepEqual(
      (await second.get<ControlVersion[]>('/api/v2/controls/acme/ctl/versions')).body.map((v) => [v.version, v.name]),
      [[3, 'three']],
    );

    await decide(second, false);
    await report(second, 'prod', [fps[3]]);
    const decisions = (await second.get<DecisionPage>('/api/v2/controls/acme/ctl/decisions')).body;
    assert.equal(decisions.pagination.total, 4);
    assert.deepEqual(
      decisions.data.slice(1).map((decision) => decision.decision_id),
      [...(before[5] as DecisionPage).data, ...(before[6] as DecisionPage).data].map(
        (decision) => decision.decision_id,
      ),
    );
    const deployments = (await second.get<DeploymentPage>('/api/v2/deployments/acme')).body;
    assert.deepEqual(
      deployments.data.map((d) => `${d.environment_name}#${d.snapshot_index}`),
      ['prod#3', 'prod#2', 'staging#1', 'prod#1'],
    );
    assert.equal(deployments.data[0].fingerprint, fps[3]);
    assert.equal(
      (await second.get<DeploymentPage>('/api/v2/repos/acme/web-repo/deployments')).body.pagination.total,
      4,
    );
  });
});
