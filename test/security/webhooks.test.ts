// Issue 23, webhooks: tenants apart and targets kept outside the server's network. Each test
// asserts the bounded outcome on the real built server, on the engine of the run (the outbox is
// SQLite's or PostgreSQL's):
// - one org's receivers that accept and never answer do not delay another org's deliveries, nor
//   one hung receiver an org's deliveries to its other receivers (under 2 s; they waited out the
//   hung attempts before);
// - loopback, private, link-local, metadata, shared, unspecified and multicast targets are refused
//   with 400 when written, in every form the URL parser reads as one;
// - a name that resolves to such an address is refused when delivering, after resolution;
// - what a reader sees of an action does not tell an open port from a closed one.
import assert from 'node:assert/strict';
import { lookup } from 'node:dns/promises';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import { hostname } from 'node:os';
import type { Action, ErrorBody } from '../api/answers.ts';
import { beginTrail, createEnvironment, createFlow } from '../api/fixtures.ts';
import { startServer, tempDataDir, type TestServer } from '../api/harness.ts';
import { waitFor } from '../support/wait.ts';

const FLAG = '--allow-private-webhooks';
/** The latency bound of a delivery while other deliveries hang (the hung attempts last 30 s here). */
const LATENCY_BOUND_MS = 2_000;

/** A receiver that answers 200 and notes when each delivery arrived (performance.now()) and every connection. */
class Receiver {
  readonly arrivals: number[] = [];
  connections = 0;
  private readonly server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      this.arrivals.push(performance.now());
      res.end();
    });
  });

  async start(host = '127.0.0.1'): Promise<number> {
    this.server.on('connection', () => (this.connections += 1));
    await new Promise<void>((resolve) => this.server.listen(0, host, resolve));
    return (this.server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** A TCP listener that accepts every connection and never answers: a receiver that hangs. */
class Hung {
  readonly sockets: Socket[] = [];
  private readonly server: TcpServer = createTcpServer((socket) => {
    socket.on('error', () => undefined);
    this.sockets.push(socket);
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** Sets environment variables for the servers this block starts, and puts them back after. */
function withEnvironment(values: Record<string, string>): void {
  const saved: Record<string, string | undefined> = {};
  before(() => {
    for (const [name, value] of Object.entries(values)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
  });
  after(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
}

async function hookFlow(server: TestServer, org: string, flow: string, urls: string[]): Promise<Action> {
  await createFlow(server, org, flow);
  const reply = await server.json<Action>('PUT', `/api/v2/actions/${org}/flows`, {
    name: `${flow}-hooks`,
    targets: urls.map((webhook) => ({ type: 'WEBHOOK', webhook })),
    flows: [flow],
    triggers: ['ON_STARTED_TRAIL'],
  });
  assert.equal(reply.status, 201, reply.text);
  return reply.body;
}

/** Milliseconds from beginning a trail of `flow` to its delivery reaching `receiver`. */
async function deliveryLatency(server: TestServer, org: string, flow: string, receiver: Receiver): Promise<number> {
  const before = receiver.arrivals.length;
  const started = performance.now();
  await beginTrail(server, org, flow, `measured-${before}`);
  await waitFor(() => receiver.arrivals.length > before, `the delivery of ${org}/${flow}`, 60_000);
  return receiver.arrivals[before] - started;
}

describe('security: webhook deliveries keep tenants apart', function () {
  this.timeout(120_000);
  // A hung attempt holds its slot for 30 s, longer than each test: what waits behind it would
  // wait that long.
  withEnvironment({ CEV_WEBHOOK_TIMEOUT_MS: '30000' });
  let server: TestServer;
  const hung: Hung[] = [];
  const receiver = new Receiver();
  let healthy = '';

  before(async () => {
    for (let i = 0; i < 48; i += 1) hung.push(new Hung());
    healthy = `http://127.0.0.1:${await receiver.start()}/hook`;
    // The receivers are on loopback, which webhooks reach only with the operator's flag.
    server = await startServer({ args: ['--org', 'acme', '--org', 'beta', FLAG] });
  });
  after(async () => {
    await server?.stop();
    for (const target of hung) await target.close();
    await receiver.close();
  });

  const accepted = (targets: Hung[]): number => targets.reduce((sum, target) => sum + target.sockets.length, 0);

  it("acme's deliveries go out under 2 s while beta's 48 receivers accept and never answer", async () => {
    const urls = await Promise.all(hung.map(async (target) => `${await target.start()}/hook`));
    await hookFlow(server, 'beta', 'busy', urls);
    await hookFlow(server, 'acme', 'quick', [healthy]);
    // Beta's deliveries are stored first: two trails, 96 deliveries in 48 lanes, all hanging.
    await beginTrail(server, 'beta', 'busy', 'first');
    await beginTrail(server, 'beta', 'busy', 'second');
    await waitFor(() => accepted(hung) >= 8, "beta's deliveries to hang on its receivers");
    const latency = await deliveryLatency(server, 'acme', 'quick', receiver);
    assert.ok(latency < LATENCY_BOUND_MS, `acme's delivery took ${Math.round(latency)} ms`);
    assert.ok(accepted(hung) <= 8, `beta holds no more than its share of attempts (${accepted(hung)} hanging)`);
  });

  it("one receiver of acme that hangs does not hold back acme's deliveries to another", async () => {
    const slow = new Hung();
    hung.push(slow);
    const base = await slow.start();
    // 24 lanes to one receiver: more than the server used to have slots for, all together.
    await hookFlow(
      server,
      'acme',
      'stuck',
      Array.from({ length: 24 }, (_, i) => `${base}/hook/${i}`),
    );
    await beginTrail(server, 'acme', 'stuck', 'first');
    await waitFor(() => slow.sockets.length >= 2, 'the deliveries to hang on the one receiver');
    const latency = await deliveryLatency(server, 'acme', 'quick', receiver);
    assert.ok(latency < LATENCY_BOUND_MS, `acme's other delivery took ${Math.round(latency)} ms`);
    assert.ok(slow.sockets.length <= 2, `the hung receiver holds ${slow.sockets.length} attempts`);
  });
});

/** Every form of a forbidden target the URL parser reads, with the host the refusal must name. */
const FORBIDDEN: Array<[url: string, host: string]> = [
  ['http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
  ['http://[fd00:ec2::254]/', '[fd00:ec2::254]'],
  ['http://localhost:8080/hook', 'localhost'],
  ['http://LOCALHOST./hook', 'localhost.'],
  ['http://hooks.localhost/', 'hooks.localhost'],
  ['http://0x7f000001/', '127.0.0.1'],
  ['http://2130706433/', '127.0.0.1'],
  ['http://127.1/', '127.0.0.1'],
  ['http://0177.0.0.1/', '127.0.0.1'],
  ['http://127.0.0.1./', '127.0.0.1'],
  ['https://user:secret@127.0.0.1:8443/', '127.0.0.1'],
  ['http://[::1]/', '[::1]'],
  ['http://[::ffff:127.0.0.1]/', '[::ffff:7f00:1]'],
  ['http://[::ffff:169.254.169.254]/', '[::ffff:a9fe:a9fe]'],
  ['http://[::127.0.0.1]/', '[::7f00:1]'],
  ['http://[64:ff9b::7f00:1]/', '[64:ff9b::7f00:1]'],
  ['http://10.0.0.1/', '10.0.0.1'],
  ['http://172.16.0.1/', '172.16.0.1'],
  ['http://192.168.1.1/', '192.168.1.1'],
  ['http://[fc00::1]/', '[fc00::1]'],
  ['http://100.64.0.1/', '100.64.0.1'],
  ['http://0.0.0.0/', '0.0.0.0'],
  ['http://0/', '0.0.0.0'],
  ['http://[::]/', '[::]'],
  ['http://224.0.0.1/', '224.0.0.1'],
  ['http://[ff02::1]/', '[ff02::1]'],
  ['http://[fe80::1]/', '[fe80::1]'],
  ['http://255.255.255.255/', '255.255.255.255'],
];

describe('security: webhook targets inside the network are refused', function () {
  this.timeout(120_000);
  withEnvironment({ CEV_WEBHOOK_BACKOFF_MS: '20' });
  let server: TestServer | undefined;
  const receiver = new Receiver();
  after(async () => {
    await server?.stop();
    await receiver.close();
  });

  it('refuses each form with 400 naming the host and the flag, on every route that writes actions, and stores none', async () => {
    const writing = await startServer({ args: ['--org', 'acme'] });
    server = writing;
    await createFlow(writing, 'acme', 'flow');
    await createEnvironment(writing, 'acme', 'prod');
    const routes = [
      ['/api/v2/actions/acme/flows', { flows: ['flow'], triggers: ['ON_STARTED_TRAIL'] }],
      ['/api/v2/actions/acme', { type: 'flow', flows: ['flow'], triggers: ['ON_STARTED_TRAIL'] }],
      ['/api/v2/actions/acme/environments', { environments: ['prod'], triggers: ['ON_STARTED_ARTIFACT'] }],
      [
        '/api/v2/organizations/acme/environments_notifications',
        { environments: ['prod'], triggers: ['ON_STARTED_ARTIFACT'] },
      ],
    ] as const;
    for (const [url, host] of FORBIDDEN) {
      for (const [route, watched] of routes) {
        const reply = await writing.json<ErrorBody>('PUT', route, {
          name: 'probe',
          targets: [
            { type: 'EMAIL', emails: ['a@example.test'] },
            { type: 'WEBHOOK', webhook: url },
          ],
          ...watched,
        });
        assert.equal(reply.status, 400, `${url} on ${route}: ${reply.text}`);
        assert.ok(reply.body.message.includes(`'${host}'`), `${url}: the message names ${host}: ${reply.body.message}`);
        assert.ok(reply.body.message.includes(FLAG), `${url}: the message names the flag`);
        assert.ok(
          reply.body.errors?.['targets[1].webhook']?.includes(url),
          `${url}: the field and the input are named`,
        );
      }
    }
    assert.deepEqual((await writing.get<Action[]>('/api/v2/actions/acme')).body, [], 'nothing stored');
    for (const url of ['https://hooks.example.test/x', 'http://93.184.215.14:8080/hook', 'http://[2606:4700::1]/']) {
      const reply = await writing.json('PUT', '/api/v2/actions/acme/flows', {
        name: 'public',
        targets: [{ type: 'WEBHOOK', webhook: url }],
        flows: ['flow'],
        triggers: ['ON_ATTESTATION'],
      });
      assert.ok(reply.status === 201 || reply.status === 200, `a public target is kept: ${url}: ${reply.text}`);
    }
  });

  it('refuses, when delivering, a name that resolves to this machine and an address stored while the flag was on: nothing connects', async () => {
    await server?.stop();
    server = undefined;
    // A name no rule refuses as written: this machine's own name, which resolves (/etc/hosts) to
    // one of its own addresses, loopback or a private one. Only its resolution tells.
    const name = hostname();
    const [{ address }] = await lookup(name, { all: true });
    assert.match(address, /^(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|::1$|f[cd])/, `${name} resolves locally`);
    const port = await receiver.start(address);
    const dataDir = tempDataDir();
    const byName = `http://${name}:${port}/by-name`;
    const byAddress = `http://${address.includes(':') ? `[${address}]` : address}:${port}/by-address`;

    // With the flag, both reach the receiver: the name does lead to it.
    const allowed = await startServer({ args: ['--org', 'acme', FLAG], dataDir });
    server = allowed;
    const action = await hookFlow(allowed, 'acme', 'flow', [byName, byAddress]);
    await beginTrail(allowed, 'acme', 'flow', 'allowed');
    await waitFor(() => receiver.arrivals.length === 2, 'both deliveries while the flag is on');
    await allowed.stop({ keepData: true });

    // Without it, the same data: the stored targets are refused when delivering, and the name is
    // still accepted as written (no rule tells it apart without resolving it).
    const refusing = await startServer({ args: ['--org', 'acme'], dataDir });
    server = refusing;
    const connections = receiver.connections;
    const rewritten = await refusing.json('PUT', '/api/v2/actions/acme/flows', {
      name: 'by-name-only',
      targets: [{ type: 'WEBHOOK', webhook: `${byName}/again` }],
      flows: ['flow'],
      triggers: ['ON_STARTED_TRAIL'],
    });
    assert.equal(rewritten.status, 201, rewritten.text);
    await beginTrail(refusing, 'acme', 'flow', 'refused');
    const shows = async (number: number) => (await refusing.get<Action>(`/api/v2/actions/acme/${number}`)).body;
    // No delivery failed before: a failure recorded is this refusal.
    for (const number of [action.number, (rewritten.body as Action).number])
      await waitFor(
        async () => (await shows(number)).last_failure_timestamp !== null,
        `the refusal of action ${number} to be recorded`,
      );
    assert.equal((await shows(action.number)).is_failing, true);
    assert.equal(receiver.arrivals.length, 2, 'no delivery arrived');
    assert.equal(receiver.connections, connections, 'nothing connected to the receiver');
  });
});

describe('security: what a reader sees of an action tells no port state', function () {
  this.timeout(120_000);
  withEnvironment({ CEV_WEBHOOK_BACKOFF_MS: '20' });
  let server: TestServer;
  const receiver = new Receiver();

  before(async () => {
    // With the flag: the one setting in which a delivery reaches ports of this machine at all.
    server = await startServer({
      args: [FLAG],
      config: [
        'orgs: [{name: acme}]',
        'api_keys:',
        '  - {key: reader-key-0001, orgs: [acme], role: reader}',
        '  - {key: snapshotter-key-01, orgs: [acme], role: snapshotter}',
        '  - {key: member-key-00001, orgs: [acme], role: member}',
      ],
    });
  });
  after(async () => {
    await server?.stop();
    await receiver.close();
  });

  it('an open and a closed port look the same to a reader and a snapshotter; members and admins see which failed', async () => {
    const open = `http://127.0.0.1:${await receiver.start()}/hook`;
    const probe = createTcpServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const closed = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/hook`;
    await new Promise((resolve) => probe.close(resolve));

    await createEnvironment(server, 'acme', 'prod');
    const numbers: number[] = [];
    for (const [name, webhook] of [
      ['open-port', open],
      ['closed-port', closed],
    ]) {
      const reply = await server.json<Action>('PUT', '/api/v2/actions/acme/environments', {
        name,
        targets: [{ type: 'WEBHOOK', webhook }],
        environments: ['prod'],
        triggers: ['ON_STARTED_ARTIFACT'],
      });
      assert.equal(reply.status, 201, reply.text);
      numbers.push(reply.body.number);
    }
    const report = await server.json('PUT', '/api/v2/environments/acme/prod/report/K8S', {
      artifacts: [
        { podName: 'p-1', namespace: 'prod', creationTimestamp: 1700000000, digests: { 'reg/app:1': 'a'.repeat(64) } },
      ],
    });
    assert.equal(report.status, 200, report.text);

    const seenBy = async (key: string) =>
      Promise.all(
        numbers.map(async (number) => {
          const { is_failing, last_success_timestamp, last_failure_timestamp } = (
            await server.get<Action>(`/api/v2/actions/acme/${number}`, { key })
          ).body;
          return { is_failing, last_success_timestamp, last_failure_timestamp };
        }),
      );
    // The admin sees the outcomes: delivered to the open port, failed (after its retries) to the closed one.
    await waitFor(async () => {
      const [toOpen, toClosed] = await seenBy(server.key);
      return toOpen.last_success_timestamp !== null && toClosed.is_failing;
    }, 'both outcomes');
    const [toOpen, toClosed] = await seenBy('member-key-00001');
    assert.equal(toOpen.is_failing, false);
    assert.equal(toClosed.is_failing, true, 'a member sees the failure');

    const nothing = { is_failing: false, last_success_timestamp: null, last_failure_timestamp: null };
    for (const key of ['reader-key-0001', 'snapshotter-key-01']) {
      assert.deepEqual(await seenBy(key), [nothing, nothing], `what ${key} gets of each action`);
      const listed = (await server.get<Action[]>('/api/v2/actions/acme', { key })).body;
      const legacy = (await server.get<Action[]>('/api/v2/organizations/acme/environments_notifications', { key }))
        .body;
      for (const shown of [...listed, ...legacy])
        assert.deepEqual(
          [shown.is_failing, shown.last_success_timestamp, shown.last_failure_timestamp],
          [false, null, null],
          `${key} in a list`,
        );
      assert.equal(listed.length + legacy.length, 4);
    }
  });
});
