// The shared document limits on the server (issue 23; shared/limits.ts): templates and policies
// too large, with too many slots or rules, too many errors, too many aliases or nested too deeply
// are refused with a clear 413 or 400 at once, through every route that reads one, and a page
// number no list can reach is refused by every list route. Each hostile request is sent with a
// reader key (or an admin's, where only writing reads the document) while /ready is asked every
// 20 ms; the test asserts the status and message, the time (bound: 10 s, generous for a shared
// CPU), the slowest /ready meanwhile (bound: 1 s; expected well under 100 ms), the growth of the
// server's peak RSS (bound: 300 MB) and that the same process still answers. The figures measured
// are printed at the end. Run once: no limit depends on the storage engine.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import type { ErrorBody, OpenApiDocument } from '../api/answers.ts';
import { createEnvironment, createFlow, fingerprint } from '../api/fixtures.ts';
import { startServer, type Reply, type TestServer } from '../api/harness.ts';
import {
  anchorsTemplate,
  artifactsTemplate,
  badEntriesTemplate,
  deepPolicy,
  deepTemplate,
  POLICY_HEAD,
  rulesPolicy,
  slotsTemplate,
} from './documents.ts';
import { hostileRequest, postAs } from './probes.ts';

const READER = 'reader-key-limits-01';
const BOUNDS = { ms: 10_000, readyMs: 1000, growthMb: 300 };

describe('document limits: the server refuses what is over them at once (issue 23)', function () {
  this.timeout(120_000);
  let server: TestServer;
  const figures: string[] = [];

  before(async () => {
    // The server's own RSS and PID are measured: it runs in a process of its own.
    server = await startServer({
      process: true,
      config: ['orgs: [{name: acme}]', 'api_keys:', `  - {key: ${READER}, orgs: [acme], role: reader}`],
    });
    await createFlow(server, 'acme', 'backend', 'version: 1\n');
    await createEnvironment(server, 'acme', 'prod');
    const pods = [{ podName: 'pod-0', namespace: 'prod', creationTimestamp: 1700000000, owners: [] }].map((pod) => ({
      ...pod,
      digests: { 'reg/app:1': fingerprint('app') },
    }));
    const report = await server.json('PUT', '/api/v2/environments/acme/prod/report/K8S', { artifacts: pods });
    assert.ok([200, 201].includes(report.status), report.text);
  });
  after(async () => {
    if (figures.length > 0) console.log(`      measured:\n${figures.map((line) => `        ${line}`).join('\n')}`);
    await server?.stop();
  });

  const hostile = <T = ErrorBody>(label: string, send: () => Promise<Reply<T>>) =>
    hostileRequest(server, label, send, BOUNDS, figures);
  const asReader = (path: string, body: object) => postAs<ErrorBody>(server, READER, path, body);
  const impact = (template: string) => asReader('/api/v2/flows/acme/backend/template-impact', { template });
  const dryRun = (policy: string) => asReader('/api/v2/environments/acme/prod/policy-dry-run', { policy });
  const uploadTemplate = (template: string) => () =>
    server.multipart<ErrorBody>('PUT', '/api/v2/flows/acme/template_file', {
      data_json: JSON.stringify({ name: 'uploaded', description: '' }),
      template_file: { filename: 'template.yml', content: template },
    });
  const uploadPolicy = (policy: string) => () =>
    server.multipart<ErrorBody>('PUT', '/api/v2/policies/acme', {
      payload: JSON.stringify({ name: 'uploaded', description: '', type: 'env' }),
      policy_file: { filename: 'policy.yml', content: policy },
    });

  /**
   * A preview whose body is over the route's limit, as a client sends it: headers declaring the
   * whole length, then the body's first part; the answer comes from the declared length, before
   * the rest is sent (the server then closes, so a client writing on would see EPIPE).
   */
  const declared = (path: string, body: object) => {
    const text = JSON.stringify(body);
    return () =>
      new Promise<Reply<ErrorBody>>((resolve, reject) => {
        const socket = connect(server.port, '127.0.0.1');
        let received = '';
        const timer = setTimeout(() => {
          socket.destroy();
          reject(new Error(`no answer from the declared length: ${received}`));
        }, 10_000);
        socket.on('data', (chunk: Buffer) => {
          received += chunk.toString();
          const [head, answer] = received.split('\r\n\r\n');
          const length = Number(/content-length: (\d+)/i.exec(head)?.[1]);
          if (answer === undefined || Buffer.byteLength(answer) < length) return;
          clearTimeout(timer);
          socket.destroy();
          const status = Number(head.split(' ')[1]);
          resolve({ status, headers: {}, text: answer, body: JSON.parse(answer) as ErrorBody });
        });
        socket.on('error', reject);
        socket.write(
          `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${READER}\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text.slice(0, 65_536)}`,
        );
      });
  };

  it('refuses a template of 200,000 slots (6 MB) and of 20,000 with 413 before reading it, on impact and upload', async () => {
    const body = await hostile(
      'impact, 200,000 slots',
      declared('/api/v2/flows/acme/backend/template-impact', { template: slotsTemplate(200_000) }),
    );
    assert.equal(body.status, 413, body.text);
    assert.equal(
      body.body.message,
      'Request body is too large: a preview takes at most 1.5 MB, a template or policy at most 256 KB',
    );
    for (const [label, send] of [
      ['impact, 20,000 slots', impact(slotsTemplate(20_000))],
      ['upload, 200,000 slots', uploadTemplate(slotsTemplate(200_000))],
    ] as const) {
      const reply = await hostile(label, send);
      assert.equal(reply.status, 413, reply.text);
      assert.equal(reply.body.message, 'Input payload too large');
      const [message] = Object.values(reply.body.errors ?? {});
      assert.match(message, /^This flow template is [\d.]+ (KB|MB), over the limit of 256 KB; .* \[input: …\]$/);
    }
    assert.equal((await server.get('/api/v2/flows/acme/uploaded')).status, 404, 'a refused upload stores nothing');
  });

  it('refuses a template within the size limit but over 1,000 slots with 413, naming the count', async () => {
    for (const [label, template, slots] of [
      ['impact, 1,500 slots', slotsTemplate(1500), '1,500'],
      ['impact, 300 artifacts × 5 slots', artifactsTemplate(300, 5), '1,800'],
    ] as const) {
      const reply = await hostile(label, impact(template));
      assert.equal(reply.status, 413, reply.text);
      assert.match(
        reply.body.errors?.trail ?? '',
        new RegExp(
          `^The template has ${slots} slots \\(trail attestations, artifacts and their attestations\\), over the limit of 1,000`,
        ),
      );
    }
    const reply = await hostile('impact, 2,000 artifacts × 5 slots', impact(artifactsTemplate(2000, 5)));
    assert.equal(reply.status, 413, 'over the size limit first');
  });

  it('refuses a policy of 10,000 rules and of 1,000 with 413, on dry-run and upload', async () => {
    const sized = await hostile('dry-run, 10,000 rules', dryRun(rulesPolicy(10_000)));
    assert.equal(sized.status, 413, sized.text);
    assert.match(
      sized.body.errors?.policy ?? '',
      /^This environment policy is [\d.]+ (KB|MB), over the limit of 256 KB/,
    );
    for (const [label, send, field] of [
      ['dry-run, 1,000 rules', dryRun(rulesPolicy(1000)), 'policy.artifacts'],
      ['upload, 1,000 rules', uploadPolicy(rulesPolicy(1000)), 'policy_file.artifacts'],
    ] as const) {
      const reply = await hostile(label, send);
      assert.equal(reply.status, 413, reply.text);
      assert.match(
        reply.body.errors?.[field] ?? '',
        /^The policy has 1,000 rules \(attestation rules and exceptions\), over the limit of 500/,
      );
    }
  });

  it('lists the first 100 errors of a template with many and counts the rest, in a small answer', async () => {
    const sized = await hostile(
      'impact, 100,000 bad entries',
      declared('/api/v2/flows/acme/backend/template-impact', { template: badEntriesTemplate(100_000) }),
    );
    assert.equal(sized.status, 413, sized.text);
    for (const [label, send] of [
      ['impact, 1,000 bad entries', impact(badEntriesTemplate(1000))],
      ['upload, 1,000 bad entries', uploadTemplate(badEntriesTemplate(1000))],
    ] as const) {
      const reply = await hostile(label, send);
      assert.equal(reply.status, 400, reply.text);
      const errors = reply.body.errors ?? {};
      assert.equal(Object.keys(errors).length, 101, 'the first 100 fields and the count of the rest');
      assert.equal(errors['…'], '… and 1,900 more fields with errors (the first 100 are listed)');
      assert.ok(reply.text.length < 64 * 1024, `${reply.text.length} bytes`);
    }
  });

  it('refuses 20,000 anchors with 413 and 3,000 aliases within the size limit with 400, at once', async () => {
    const sized = await hostile('impact, 20,000 anchors', impact(anchorsTemplate(20_000)));
    assert.equal(sized.status, 413, sized.text);
    const reply = await hostile('impact, 3,000 aliases', impact(anchorsTemplate(3000)));
    assert.equal(reply.status, 400, reply.text);
    assert.match(
      reply.body.errors?.template ?? '',
      /^The document uses 3,000 aliases \(\*name\), over the limit of 100: write the repeated entries out/,
    );
    const bomb = await hostile(
      'impact, alias bomb',
      impact(
        [
          'version: 1',
          'a: &a [x, x, x, x, x, x, x, x, x, x]',
          ...'bcdefgh'
            .split('')
            .map((name, i) => `${name}: &${name} [${Array(10).fill(`*${'abcdefgh'[i]}`).join(', ')}]`),
        ].join('\n'),
      ),
    );
    assert.equal(bomb.status, 400, bomb.text);
    assert.match(bomb.body.errors?.template ?? '', /expands more than 1000 aliases/);
  });

  it('says "nested too deeply (limit 100 levels)" for 10,000 levels, never the stack overflow, on every route that reads a document', async () => {
    for (const [label, send, field] of [
      ['impact, 10,000 levels', impact(deepTemplate(10_000)), 'template'],
      ['template upload, 10,000 levels', uploadTemplate(deepTemplate(10_000)), 'template_file'],
      ['dry-run, 10,000 levels', dryRun(deepPolicy(10_000)), 'policy'],
      ['policy upload, 10,000 levels', uploadPolicy(deepPolicy(10_000)), 'policy_file'],
    ] as const) {
      const reply = await hostile(label, send);
      assert.equal(reply.status, 400, reply.text);
      assert.match(reply.body.errors?.[field] ?? '', /^The document is nested too deeply \(limit 100 levels\)/, label);
    }
    const fine = await server.json('POST', '/api/v2/flows/acme/backend/template-impact', {
      template: deepTemplate(50),
    });
    assert.equal(fine.status, 400, 'within the depth limit the template is judged by its rules');
    assert.doesNotMatch(fine.text, /nested too deeply/);
    const policy = `${POLICY_HEAD}  provenance:\n    required: true\n`;
    assert.equal((await server.json('POST', '/api/v2/environments/acme/prod/policy-dry-run', { policy })).status, 200);
  });

  it('refuses page=1e309 (and pages a number cannot hold exactly) with 400 on every list route', async () => {
    const document = (await server.get<OpenApiDocument>('/api/v2/openapi.json')).body;
    const paged = Object.entries(document.paths).filter(([, item]) =>
      (item.get?.parameters ?? []).some((parameter) => parameter.name === 'page'),
    );
    assert.ok(paged.length >= 10, `${paged.length} list routes take page`);
    for (const [path] of paged) {
      const concrete = path
        .replace('{org}', 'acme')
        .replace('{env}', 'prod')
        .replace('{flow}', 'backend')
        .replace(/\{[^}]+\}/g, 'x');
      for (const page of ['1e309', '9007199254740993']) {
        const reply = await server.get<ErrorBody>(`/api/v2${concrete}?page=${page}`);
        assert.equal(reply.status, 400, `${path}?page=${page}: ${reply.status} ${reply.text}`);
        assert.match(reply.body.errors?.['query.page'] ?? '', /less than or equal to 9007199254740991/, path);
      }
      const last = await server.get(`/api/v2${concrete}?page=9007199254740991`);
      assert.ok(last.status < 500, `${path}?page=9007199254740991: ${last.status} ${last.text}`);
    }
  });
});
