// Environment reports and snapshots (spec endpoint 2, snapshot rules; reference §2.6, §2.7, §5,
// §6 items 37–45), environment events, the snapshot diff and the audit log, against the real server.
import assert from 'node:assert/strict';
import type {
  EnvironmentDiff,
  Environment,
  EnvironmentEvent,
  ErrorBody,
  IssuedApiKey,
  Snapshot,
  SnapshotSummary,
} from './answers.ts';
import { valueAt } from './valueAt.ts';
import { startServer, type TestServer } from './harness.ts';

const fp = (c: string): string => c.repeat(64);

function k8s(pods: Array<[pod: string, image: string, digest: string, created?: number]>) {
  return {
    artifacts: pods.map(([podName, image, digest, created = 1700000000]) => ({
      podName,
      namespace: 'prod',
      creationTimestamp: created,
      digests: { [image]: digest },
      owners: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: `${podName}-rs`,
          uid: 'u-1',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    })),
  };
}

function serverReport(files: Record<string, string>) {
  return { artifacts: [{ digests: files, creationTimestamp: 1700000000 }] };
}

// Minimal CSV reader for the audit log (RFC 4180, CRLF rows).
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  return rows;
}

describe('environment reports and snapshots', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ args: ['--org', 'acme'] });
    for (const [name, type] of [
      ['k8s-env', 'K8S'],
      ['srv', 'server'],
      ['empty-env', 'server'],
      ['logical-env', 'logical'],
      ['csv-env', 'server'],
    ]) {
      const reply = await server.json('PUT', '/api/v2/environments/acme', { name, type, description: name });
      assert.equal(reply.status, 201, reply.text);
    }
  });
  after(async () => {
    await server?.stop();
  });

  const report = <T = unknown>(env: string, type: string, body: unknown) =>
    server.json<T>('PUT', `/api/v2/environments/acme/${env}/report/${type}`, body);
  const snapshots = async (env: string, query = '') =>
    (await server.get<SnapshotSummary[]>(`/api/v2/snapshots/acme/${env}${query}`)).body;
  const snapshot = <T = Snapshot>(env: string, expr: string) =>
    server.get<T>(`/api/v2/snapshots/acme/${env}/${encodeURIComponent(expr)}`);

  it('follows the snapshot rules: new artifact, scale only, timestamp only, artifact removed', async () => {
    const first = await report('k8s-env', 'K8S', k8s([['web-1', 'reg/web:1', fp('a')]]));
    assert.equal(first.status, 200);
    assert.equal(first.body, 'OK');
    assert.equal((await snapshots('k8s-env')).length, 1);

    // A new artifact starts: snapshot 2, `started`.
    await report(
      'k8s-env',
      'K8S',
      k8s([
        ['web-1', 'reg/web:1', fp('a')],
        ['api-1', 'reg/api:7', fp('b')],
      ]),
    );
    // Scale only: more pods of the same digests — no snapshot.
    await report(
      'k8s-env',
      'K8S',
      k8s([
        ['web-1', 'reg/web:1', fp('a')],
        ['web-2', 'reg/web:1', fp('a')],
        ['api-1', 'reg/api:7', fp('b')],
      ]),
    );
    // Timestamp only: the same pods restarted — no snapshot.
    const beforeTimestamps = (await server.get<Environment>('/api/v2/environments/acme/k8s-env')).body;
    await report(
      'k8s-env',
      'K8S',
      k8s([
        ['web-1', 'reg/web:1', fp('a'), 1800000000],
        ['web-2', 'reg/web:1', fp('a'), 1800000000],
        ['api-1', 'reg/api:7', fp('b'), 1800000001],
      ]),
    );
    const afterTimestamps = (await server.get<Environment>('/api/v2/environments/acme/k8s-env')).body;
    assert.equal((await snapshots('k8s-env')).length, 2, 'instance counts and timestamps make no snapshot');
    const [before, after] = [beforeTimestamps.last_reported_at, afterTimestamps.last_reported_at];
    assert.ok(
      typeof before === 'number' && typeof after === 'number' && after > before,
      'last_reported_at still advances',
    );
    assert.equal(afterTimestamps.last_changed_at, beforeTimestamps.last_changed_at);

    // An artifact is removed: snapshot 3, `exited`, and the counts of the other are recorded.
    await report(
      'k8s-env',
      'K8S',
      k8s([
        ['web-1', 'reg/web:1', fp('a')],
        ['web-2', 'reg/web:1', fp('a')],
      ]),
    );
    const list = await snapshots('k8s-env');
    assert.deepEqual(
      list.map((s: { index: number }) => s.index),
      [3, 2, 1],
      'newest first',
    );
    assert.equal(list[0].to, 0, 'the current snapshot is open');
    assert.equal(list[1].to, list[0].from, "the previous snapshot's to is the next one's from");
    for (const item of list) {
      assert.equal(typeof item.duration, 'number');
      assert.equal(item.compliant, false, 'no policy → not compliant');
    }

    const second = (await snapshot('k8s-env', '2')).body;
    assert.deepEqual(
      second.artifacts.map((a) => [a.name, a.annotation]),
      [
        ['reg/web:1', { type: 'unchanged', was: 1, now: 1 }],
        ['reg/api:7', { type: 'started', was: 0, now: 1 }],
      ],
    );
    const third = (await snapshot('k8s-env', '-1')).body;
    assert.equal(third.index, 3);
    assert.equal(third.is_latest, true);
    assert.equal(third.type, 'K8S');
    assert.equal(third.compliant, false);
    assert.deepEqual(third.artifact_compliance_count, { true: 0, false: 0, null: 1 });
    assert.deepEqual(third.event_counts, { total: 1, started: 0, changed: 0, exited: 1 });
    assert.match(third.html_url, /\/acme\/environments\/k8s-env\/snapshots\/3$/);
    assert.deepEqual(
      third.artifacts.map((a) => [a.name, a.annotation]),
      [
        ['reg/web:1', { type: 'unchanged', was: 1, now: 2 }],
        ['reg/api:7', { type: 'exited', was: 1, now: 0 }],
      ],
    );
    const web = third.artifacts[0];
    assert.equal(web.fingerprint, fp('a'));
    assert.deepEqual(Object.keys(web.pods ?? {}).sort(), ['web-1', 'web-2']);
    assert.equal(valueAt(web.pods, 'web-1', 'namespace'), 'prod');
    assert.equal(valueAt(web.pods, 'web-1', 'owners', 0, 'kind'), 'ReplicaSet');
    assert.equal(web.creationTimestamp?.length, 2);
    assert.equal(web.compliant, null);

    const events = await server.get<EnvironmentEvent[]>('/api/v2/environments/acme/k8s-env/events');
    assert.equal(events.status, 200);
    assert.equal(events.headers['x-total-count'], '3');
    assert.deepEqual(
      events.body.map((e) => [e.snapshot_index, e.type, e.artifact_name, e.sha256]),
      [
        [3, 'exited', 'reg/api:7', fp('b')],
        [2, 'started', 'reg/api:7', fp('b')],
        [1, 'started', 'reg/web:1', fp('a')],
      ],
    );
    for (const event of events.body) {
      assert.equal(typeof event.reported_at, 'number');
      assert.equal(event.pipeline, '', 'no provenance → empty string, never null');
      assert.equal(typeof event.description, 'string');
    }

    const log = await server.get('/api/v2/environments/acme/k8s-env/auditlog');
    assert.equal(log.status, 200);
    assert.match(String(log.headers['content-type']), /^text\/csv/);
    const rows = csvRows(log.text);
    assert.deepEqual(rows[0].slice(0, 5), ['timestamp', 'reported_at', 'event_type', 'environment', 'snapshot_index']);
    assert.deepEqual(
      rows.slice(1).map((row) => [row[2], row[4], row[5]]),
      [
        ['started', '1', 'reg/web:1'],
        ['started', '2', 'reg/api:7'],
        ['exited', '3', 'reg/api:7'],
      ],
    );
  });

  it('answers the report errors of spec endpoint 2 exactly, and stores nothing', async () => {
    const missing = await report('nope', 'K8S', k8s([]));
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { message: 'Environment not found' });
    const invalid = await report<ErrorBody>('k8s-env', 'K8S', {
      artifacts: [{ podName: 'p', namespace: 'n', creationTimestamp: 'soon', digests: { img: 'short' } }],
    });
    assert.equal(invalid.status, 400);
    assert.equal(invalid.body.message, 'Invalid report data');
    assert.match(
      invalid.body.errors?.['artifacts[0].creationTimestamp'] ?? '',
      /^Input should be a valid integer.* \[input: soon\]$/,
    );
    assert.ok(invalid.body.errors?.['artifacts[0].digests.img'].endsWith('[input: short]'));
    const noArtifacts = await report<ErrorBody>('k8s-env', 'K8S', {});
    assert.equal(noArtifacts.status, 400);
    assert.equal(noArtifacts.body.errors?.artifacts, 'Field required [input: None]');
    const logical = await report<ErrorBody>('logical-env', 'server', serverReport({ f: fp('c') }));
    assert.equal(logical.status, 400);
    assert.match(logical.body.message, /logical/);
    const wrongType = await report<ErrorBody>('k8s-env', 'server', serverReport({ f: fp('c') }));
    assert.equal(wrongType.status, 400);
    assert.match(wrongType.body.message, /of type K8S/);
    const unknownType = await report('k8s-env', 'k8s', k8s([]));
    assert.equal(unknownType.status, 400);
    const otherInvalid = await report<ErrorBody>('srv', 'server', { artifacts: [{ digests: { f: 'x' } }] });
    assert.equal(otherInvalid.status, 400);
    assert.equal(otherInvalid.body.message, 'Input payload validation failed');
    assert.deepEqual(await snapshots('srv'), [], 'nothing recorded');
    assert.equal((await snapshots('k8s-env')).length, 3);
  });

  it('resolves every snapshot expression, with the exact out-of-range messages', async () => {
    const empty = await snapshot('empty-env', '-1');
    assert.equal(empty.status, 400);
    assert.deepEqual(empty.body, {
      message:
        "Org: 'acme'. Snapshot 'empty-env#-1' resolves to 'empty-env#0'. len(snapshots) == 0. Indexes are 1-based",
    });
    for (const files of [{ f1: fp('1') }, { f2: fp('2') }, { f3: fp('3') }] as Record<string, string>[])
      await report('srv', 'server', serverReport(files));
    const far = await snapshot<ErrorBody>('srv', '#23');
    assert.equal(far.status, 400);
    assert.equal(
      far.body.message,
      "Org: 'acme'. Snapshot 'srv#23' resolves to 'srv#23'. len(snapshots) == 3. Indexes are 1-based",
    );
    const soon = new Date(Date.now() + 1000).toISOString().slice(0, 19);
    for (const [expr, index] of [
      ['1', 1],
      ['~1', 2],
      ['-1', 3],
      ['#2', 2],
      ['@{now}', 3],
      [`@{${soon}}`, 3],
      ['@{5.minutes.ago}', 0],
    ] as const) {
      const reply = await snapshot('srv', expr);
      if (index === 0) assert.equal(reply.status, 400, expr);
      else assert.equal(reply.body.index, index, expr);
    }
    const unknownEnv = await snapshot('nope', '-1');
    assert.equal(unknownEnv.status, 404);
    assert.deepEqual(unknownEnv.body, { message: "Environment named 'nope' does not exist for organization 'acme'" });
    assert.equal((await snapshot('srv', 'gibberish')).status, 400);
  });

  it('lists snapshots by interval, reversed and paged', async () => {
    const indexes = async (query: string) => (await snapshots('srv', query)).map((s: { index: number }) => s.index);
    assert.deepEqual(await indexes('?page=1&per_page=15&interval=&reverse=false'), [3, 2, 1]);
    assert.deepEqual(await indexes('?interval=NOW'), [3]);
    assert.deepEqual(await indexes('?interval=1..2'), [2, 1]);
    assert.deepEqual(await indexes('?interval=1..2&reverse=true'), [1, 2]);
    assert.deepEqual(await indexes('?interval=~1..NOW'), [3, 2]);
    assert.deepEqual(await indexes('?page=2&per_page=2'), [1]);
    const bad = await server.get('/api/v2/snapshots/acme/srv?interval=1..x');
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body, { message: 'Invalid interval value: x' });
    assert.deepEqual(await snapshots('empty-env'), []);
    assert.equal((await server.get('/api/v2/snapshots/acme/nope')).status, 404);
  });

  it('filters environment events by interval, start/end, timestamps and repo', async () => {
    const count = async (query: string) => {
      const reply = await server.get<EnvironmentEvent[]>(`/api/v2/environments/acme/srv/events${query}`);
      assert.equal(reply.status, 200, `${query}: ${reply.text}`);
      return reply.body.map((e: { snapshot_index: number; type: string }) => `${e.snapshot_index}${e.type[0]}`);
    };
    assert.deepEqual(await count(''), ['3e', '3s', '2e', '2s', '1s']);
    assert.deepEqual(await count('?interval=NOW'), ['3e', '3s']);
    assert.deepEqual(await count('?interval=1..2&reverse=true'), ['1s', '2s', '2e']);
    assert.deepEqual(await count('?start=2'), ['3e', '3s', '2e', '2s']);
    assert.deepEqual(await count('?end=1'), ['1s']);
    assert.deepEqual(await count('?start=1hour&end=NOW'), ['3e', '3s', '2e', '2s', '1s']);
    assert.deepEqual(await count('?start_ts=1700000000&end_ts=1700086400'), []);
    assert.deepEqual(await count('?start_ts=1700000000.5'), ['3e', '3s', '2e', '2s', '1s']);
    // A repo the org never reported is named back as not found (reference §8.3 item 16).
    const unknownRepo = await server.get<ErrorBody>('/api/v2/environments/acme/srv/events?repo_name=acme/none');
    assert.equal(unknownRepo.status, 404, unknownRepo.text);
    assert.equal(unknownRepo.body.message, "Repo 'acme/none' not found");
    assert.deepEqual(await count('?page=2&per_page=2'), ['2e', '2s']);
    for (const [query, value] of [
      ['start=', ''],
      ['end=soonish', 'soonish'],
    ]) {
      const reply = await server.get(`/api/v2/environments/acme/srv/events?${query}`);
      assert.equal(reply.status, 400);
      assert.deepEqual(reply.body, { message: `Invalid interval value: ${value}` });
    }
    assert.deepEqual((await server.get('/api/v2/environments/acme/empty-env/events')).body, []);
    assert.equal((await server.get('/api/v2/environments/acme/nope/events')).status, 404);
  });

  it('diffs two snapshots', async () => {
    const diff = await server.get<EnvironmentDiff>('/api/v2/env-diff/acme?snappish1=srv%231&snappish2=srv');
    assert.equal(diff.status, 200, diff.text);
    assert.equal(diff.body.snappish1.snapshot_id, 'srv#1');
    assert.equal(diff.body.snappish2.snapshot_id, 'srv#3');
    assert.deepEqual(
      diff.body.snappish1.artifacts.map((a) => a.name),
      ['f1'],
    );
    assert.deepEqual(
      diff.body.snappish2.artifacts.map((a) => a.name),
      ['f3'],
    );
    assert.deepEqual(diff.body['not-changed'].artifacts, []);
    assert.deepEqual(diff.body.changed.artifacts, []);
    const same = await server.get<EnvironmentDiff>('/api/v2/env-diff/acme?snappish1=srv&snappish2=srv~0');
    assert.deepEqual(
      same.body['not-changed'].artifacts.map((a) => [a.name, a.instance_count]),
      [['f3', 1]],
    );
    const none = await server.get('/api/v2/env-diff/acme?snappish1=empty-env&snappish2=srv');
    assert.equal(none.status, 400);
    assert.deepEqual(none.body, {
      message: "Org: 'acme'. Snapshot 'empty-env' resolves to 'empty-env#0'. len(snapshots) == 0. Indexes are 1-based",
    });
    const blank = await server.get('/api/v2/env-diff/acme?snappish1=&snappish2=srv');
    assert.deepEqual(blank.body, { message: 'Bad snappish ' });
  });

  it('exports the audit log as CSV with correct quoting and every filter', async () => {
    const tricky = 'name, with "quotes"\nand a newline';
    await report('csv-env', 'server', serverReport({ [tricky]: fp('d'), plain: fp('e') }));
    await report('csv-env', 'server', serverReport({ plain: fp('e') }));
    const text = (await server.get('/api/v2/environments/acme/csv-env/auditlog')).text;
    const rows = csvRows(text);
    assert.equal(rows.length, 4);
    assert.ok(rows.every((row) => row.length === rows[0].length));
    assert.deepEqual(
      rows.slice(1).map((row) => [row[2], row[5]]),
      [
        ['started', tricky],
        ['started', 'plain'],
        ['exited', tricky],
      ],
    );
    const only = async (query: string) =>
      csvRows((await server.get(`/api/v2/environments/acme/csv-env/auditlog?${query}`)).text)
        .slice(1)
        .map((row) => row[2]);
    assert.deepEqual(await only('event_types=exited'), ['exited']);
    assert.deepEqual(await only('event_types=started,changed'), ['started', 'started']);
    assert.deepEqual(await only('flow_names=no%20provenance'), ['started', 'started', 'exited']);
    assert.deepEqual(await only('flow_names=some-flow'), []);
    assert.deepEqual(await only('repo_names=acme/web'), []);
    assert.deepEqual(await only('from_timestamp=4000000000'), []);
    assert.deepEqual(await only('to_timestamp=1000'), []);
    const badType = await server.get<ErrorBody>('/api/v2/environments/acme/csv-env/auditlog?event_types=scaled');
    assert.equal(badType.status, 400);
    assert.equal(
      badType.body.errors?.['query.event_types'],
      "Input should be 'started', 'exited' or 'changed' [input: scaled]",
    );
    const missing = await server.get('/api/v2/environments/acme/nope/auditlog');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { message: 'Environment not found' });
  });

  it('accepts every report type of reference §5.1', async () => {
    const bodies: Record<string, unknown> = {
      ECS: {
        artifacts: [
          {
            taskArn: 'arn:t',
            cluster_name: 'c',
            service_name: 's',
            digests: { 'app:1': fp('1'), agent: '' },
            creationTimestamp: 1,
          },
        ],
      },
      S3: { artifacts: [{ digests: { bucket: fp('2') }, creationTimestamp: 1 }] },
      lambda: { artifacts: [{ digests: { fn: fp('3') }, creationTimestamp: 1 }] },
      docker: { artifacts: [{ digests: { 'img:1': fp('4') }, creationTimestamp: 1 }] },
      'azure-apps': {
        artifacts: [
          {
            app_name: 'web',
            app_kind: 'app',
            digests_source: 'acr',
            digests: { 'web:1': fp('5') },
            creationTimestamp: 1,
          },
        ],
      },
      'cloud-run': {
        type: 'cloud-run',
        artifacts: [
          {
            kind: 'service',
            serviceName: 'api',
            revisionName: 'api-1',
            digests: { 'api:1': fp('6') },
            creationTimestamp: 1,
          },
        ],
      },
    };
    for (const [type, body] of Object.entries(bodies)) {
      const env = `env-${type.toLowerCase()}`;
      assert.equal(
        (await server.json('PUT', '/api/v2/environments/acme', { name: env, type, description: type })).status,
        201,
      );
      const reply = await report(env, type, body);
      assert.equal(reply.status, 200, `${type}: ${reply.text}`);
      const latest = (await snapshot(env, '-1')).body;
      assert.ok(latest.artifacts.length >= 1, type);
    }
    const ecs = (await snapshot('env-ecs', '-1')).body;
    assert.deepEqual(
      ecs.artifacts.map((a) => [a.name, a.fingerprint]),
      [
        ['app:1', fp('1')],
        ['agent', ''],
      ],
    );
    assert.deepEqual(ecs.artifacts[0].ecs_context, { task_arn: 'arn:t', cluster_name: 'c', service_name: 's' });
    assert.deepEqual(ecs.artifacts[0].instance_context, [{ taskArn: 'arn:t', cluster_name: 'c', service_name: 's' }]);
  });

  it('lets a snapshotter report and a reader only read', async () => {
    const reader = await server.json('POST', '/api/v2/service-accounts/acme', {
      name: 'reader-bot',
      privilege: 'reader',
    });
    assert.equal(reader.status, 201, reader.text);
    const readerReply = await server.json<IssuedApiKey>('POST', '/api/v2/service-accounts/acme/reader-bot/api-keys', {
      description: 'test',
    });
    const readerKey = readerReply.body.key;
    assert.equal(typeof readerKey, 'string', readerReply.text);
    const snap = await server.json('POST', '/api/v2/service-accounts/acme', {
      name: 'snap-bot',
      privilege: 'snapshotter',
    });
    assert.equal(snap.status, 201, snap.text);
    const snapKey = (
      await server.json<IssuedApiKey>('POST', '/api/v2/service-accounts/acme/snap-bot/api-keys', {
        description: 'test',
      })
    ).body.key;
    assert.equal(typeof snapKey, 'string');
    assert.equal(
      (
        await server.json('PUT', '/api/v2/environments/acme/srv/report/server', serverReport({ f3: fp('3') }), {
          key: readerKey,
        })
      ).status,
      403,
    );
    assert.equal(
      (
        await server.json(
          'PUT',
          '/api/v2/environments/acme',
          { name: 'by-reader', type: 'K8S', description: 'x' },
          { key: readerKey },
        )
      ).status,
      403,
    );
    assert.equal((await server.get('/api/v2/snapshots/acme/srv', { key: readerKey })).status, 200);
    assert.equal(
      (
        await server.json(
          'PUT',
          '/api/v2/environments/acme',
          { name: 'by-snap', type: 'K8S', description: 'x' },
          { key: snapKey },
        )
      ).status,
      201,
    );
    assert.equal(
      (await server.json('PUT', '/api/v2/environments/acme/by-snap/report/K8S', k8s([]), { key: snapKey })).status,
      200,
    );
    assert.equal(
      (await server.json('PUT', '/api/v2/environments/acme/by-snap/archive', null, { key: snapKey })).status,
      403,
    );
  });
});
