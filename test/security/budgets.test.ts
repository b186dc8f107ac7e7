// Evaluation budgets (issue 23): previews run in evaluation threads with a budget of time and
// memory, their answers are capped with counts, and policies are evaluated only within the shared
// limit of rule checks: a dry-run over it is refused with 422, a report over it is still recorded,
// with every artifact non-compliant and saying why. Each hostile request runs while /ready is asked
// every 20 ms; the test asserts the status and message, the time (bound: 20 s, generous for a
// shared CPU), the slowest /ready meanwhile (bound: 1 s; expected under 100 ms for what runs in a
// thread), the growth of the server's peak RSS (bound: 300 MB) and that the same process answers.
// The figures measured are printed at the end. Both engines: previews and reports read the store.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { ErrorBody, PolicyDryRun, Snapshot, TemplateImpact } from '../api/answers.ts';
import { beginTrail, createEnvironment, createFlow, fingerprint } from '../api/fixtures.ts';
import { startServer, type Reply, type TestServer } from '../api/harness.ts';
import { artifactsTemplate, POLICY_HEAD, rulesPolicy } from './documents.ts';
import { hostileRequest, postAs } from './probes.ts';

const READER = 'reader-key-budgets-1';
const CONFIG = ['orgs: [{name: acme}]', 'api_keys:', `  - {key: ${READER}, orgs: [acme], role: reader}`];
const BOUNDS = { ms: 20_000, readyMs: 1000, growthMb: 300 };
/** Running artifacts of the reports: 500 × 40 rules (and provenance) is just over the 20,000 rule checks. */
const PODS = 500;

const figures: string[] = [];

const hostile = <T>(server: TestServer, label: string, send: () => Promise<Reply<T>>) =>
  hostileRequest(server, label, send, BOUNDS, figures);
const asReader = <T>(server: TestServer, path: string, body: object) => postAs<T>(server, READER, path, body);

async function reportPods(server: TestServer, env: string, count: number): Promise<Reply> {
  const artifacts = Array.from({ length: count }, (_, i) => ({
    podName: `pod-${i}`,
    namespace: 'prod',
    creationTimestamp: 1700000000,
    digests: { [`reg/app-${i}:1`]: fingerprint(`app-${i}`) },
    owners: [],
  }));
  return await server.json('PUT', `/api/v2/environments/acme/${env}/report/K8S`, { artifacts });
}

async function uploadPolicy(server: TestServer, name: string, text: string): Promise<void> {
  const reply = await server.multipart('PUT', '/api/v2/policies/acme', {
    payload: JSON.stringify({ name, description: '', type: 'env' }),
    policy_file: { filename: `${name}.yml`, content: text },
  });
  assert.ok([200, 201].includes(reply.status), `${name}: ${reply.status} ${reply.text}`);
}

/** Threads of the process (proc(5)): a terminated evaluation thread is gone from it. */
function threadsOf(pid: number): number {
  return Number(/^Threads:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
}

describe('evaluation budgets: previews and policy evaluations are bounded (issue 23)', function () {
  this.timeout(180_000);
  let server: TestServer;

  before(async () => {
    server = await startServer({ process: true, config: CONFIG });
    await createFlow(server, 'acme', 'backend', 'version: 1\n');
    for (const name of ['first', 'second', 'third']) await beginTrail(server, 'acme', 'backend', name);
    await createEnvironment(server, 'acme', 'prod');
    const report = await reportPods(server, 'prod', PODS);
    assert.ok([200, 201].includes(report.status), report.text);
  });
  after(async () => {
    if (figures.length > 0) console.log(`      measured:\n${figures.map((line) => `        ${line}`).join('\n')}`);
    figures.length = 0;
    await server?.stop();
  });

  it('caps a template impact answer: at most `limit` trails, each with its first 20 changed slots and their count', async () => {
    // 200 artifacts × 4 slots + 200 artifact slots: 1,000 slots, the limit; every one is missing.
    const send = asReader<TemplateImpact>(server, '/api/v2/flows/acme/backend/template-impact?limit=2', {
      template: artifactsTemplate(200, 4),
    });
    const reply = await hostile(server, 'impact, 1,000 slots on 3 trails', send);
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.body.changed_total, 3);
    assert.equal(reply.body.changed.length, 2);
    for (const trail of reply.body.changed) {
      assert.equal(trail.changed_slots.length, 20);
      assert.equal(trail.changed_slots_total, 1000);
    }
    assert.ok(reply.text.length < 16 * 1024, `${reply.text.length} bytes`);
  });

  it('caps a dry-run answer: the non-compliant first, at most `limit`, each with its first 20 failing rules and their count', async () => {
    // 39 rules and provenance on 500 artifacts: 20,000 rule checks, the limit.
    const send = asReader<PolicyDryRun>(server, '/api/v2/environments/acme/prod/policy-dry-run', {
      policy: rulesPolicy(39).replace(/ {6}if: .*\n/g, ''),
    });
    const reply = await hostile(server, 'dry-run, 40 rules × 500 artifacts', send);
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.body.non_compliant, PODS);
    assert.equal(reply.body.artifacts.length, 100, 'the default limit');
    for (const artifact of reply.body.artifacts) {
      assert.equal(artifact.failing_rules.length, 20);
      assert.equal(artifact.failing_rules_total, 40);
    }
    assert.ok(reply.text.length < 1024 * 1024, `${reply.text.length} bytes`);
  });

  it('refuses a dry-run over 20,000 rule checks with 422, saying how many it would take', async () => {
    // 40 rules and provenance on 500 artifacts: 20,500.
    const send = asReader<ErrorBody>(server, '/api/v2/environments/acme/prod/policy-dry-run', {
      policy: rulesPolicy(40),
    });
    const reply = await hostile(server, 'dry-run, 41 rules × 500 artifacts', send);
    assert.equal(reply.status, 422, reply.text);
    assert.equal(
      reply.body.message,
      'The dry-run would take 20,500 rule checks (running artifacts × rules × trails of each), over the limit of 20,000',
    );
  });

  it('records a report whose evaluation would be over the limit, every artifact non-compliant and saying why', async () => {
    await createEnvironment(server, 'acme', 'big');
    await uploadPolicy(server, 'many-rules', rulesPolicy(40));
    assert.equal(
      (await server.json('POST', '/api/v2/environments/acme/big/policies', { policy_names: ['many-rules'] })).status,
      200,
    );
    const reply = await hostile(server, 'report, 500 artifacts under 41 rules', () => reportPods(server, 'big', PODS));
    assert.ok([200, 201].includes(reply.status), 'the report is acknowledged and kept');
    const snapshot = (await server.get<Snapshot>('/api/v2/snapshots/acme/big/-1')).body;
    assert.equal(snapshot.artifacts.length, PODS);
    assert.equal(snapshot.compliant, false);
    for (const artifact of snapshot.artifacts) {
      assert.equal(artifact.compliant, false);
      assert.deepEqual(artifact.reasons_for_incompliance, [
        'Not evaluated: the attached policies would take 20,500 rule checks (running artifacts × rules × trails of each), over the limit of 20,000; detach policies or split the environment',
      ]);
    }
    // Within the limit a report is judged rule by rule (test/bench/limits.bench.ts times one at the limit).
    await uploadPolicy(server, 'many-rules', rulesPolicy(39));
    const judged = await hostile(server, 'report, 100 artifacts under 40 rules', () => reportPods(server, 'big', 100));
    assert.ok([200, 201].includes(judged.status), judged.text);
    const latest = (await server.get<Snapshot>('/api/v2/snapshots/acme/big/-1')).body;
    assert.match(latest.artifacts[0].reasons_for_incompliance?.[0] ?? '', /^Policy 'many-rules' \(version 2\): /);
  });

  it('keeps /ready quick while four evaluations run at once', async () => {
    const policy = rulesPolicy(39);
    const sends = Array.from({ length: 4 }, () =>
      asReader<PolicyDryRun>(server, '/api/v2/environments/acme/prod/policy-dry-run', { policy }),
    );
    const replies = await hostile(server, 'four dry-runs at once', async () => {
      const all = await Promise.all(sends.map((send) => send()));
      return all[0];
    });
    assert.equal(replies.status, 200, replies.text);
  });

  describe('over the time and memory budgets of a server that sets them low', () => {
    let tight: TestServer;
    afterEach(async () => {
      await tight?.stop();
    });

    it('stops an evaluation over its time budget with 422 and ends its thread', async () => {
      tight = await startServer({ process: true, config: CONFIG, args: ['--evaluation-timeout', '0.01'] });
      await createEnvironment(tight, 'acme', 'prod');
      assert.ok([200, 201].includes((await reportPods(tight, 'prod', PODS)).status));
      const threads = threadsOf(tight.pid);
      const send = asReader<ErrorBody>(tight, '/api/v2/environments/acme/prod/policy-dry-run', {
        policy: rulesPolicy(39),
      });
      const reply = await hostile(tight, 'dry-run over a budget of 0.01 s', send);
      assert.equal(reply.status, 422, reply.text);
      assert.equal(
        reply.body.message,
        "The policy dry-run was stopped: it went over its budget of 0.01 s (the server's operator sets it with cev serve --evaluation-timeout)",
      );
      const deadline = Date.now() + 10_000;
      while (threadsOf(tight.pid) > threads && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      assert.ok(threadsOf(tight.pid) <= threads, 'the evaluation thread was ended');
    });

    it('stops an evaluation over its memory budget with 422', async () => {
      tight = await startServer({ process: true, config: CONFIG, args: ['--evaluation-memory', '32'] });
      await createFlow(tight, 'acme', 'backend', 'version: 1\n');
      // 256 KB of one flow list: some 60,000 nodes, tokens and values held at once.
      const items = 'x, '.repeat(80_000);
      const policy = `${POLICY_HEAD}  attestations: [${items}]\n`;
      const send = asReader<ErrorBody>(tight, '/api/v2/environments/acme/none/policy-dry-run', { policy });
      const missing = await send();
      assert.equal(missing.status, 404, 'an environment that does not exist is answered before any evaluation');
      await createEnvironment(tight, 'acme', 'prod');
      const reply = await hostile(
        tight,
        'dry-run over a budget of 32 MB',
        asReader<ErrorBody>(tight, '/api/v2/environments/acme/prod/policy-dry-run', { policy }),
      );
      assert.equal(reply.status, 422, reply.text);
      assert.equal(
        reply.body.message,
        "The policy dry-run was stopped: it went over its budget of 32 MB of memory (the server's operator sets it with cev serve --evaluation-memory)",
      );
      const small = await tight.json('POST', '/api/v2/environments/acme/prod/policy-dry-run', {
        policy: `${POLICY_HEAD}  provenance:\n    required: true\n`,
      });
      assert.equal(small.status, 200, 'a new thread takes the place of the one that ended');
    });
  });
});
