// The server's faults, each caused for real against the real server: a full disk (a small tmpfs),
// read-only storage, a database another process holds locked, an evidence file gone from disk, a
// webhook target that never answers, an upload cut off mid-body. Each answer is deliberate (its
// status and message) and leaves nothing stored.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { DATABASE_BUSY, NO_SPACE, READ_ONLY, STOPPING } from '../../server/api/faults.ts';
import { WRITE_LOCK } from '../../server/api/store/postgres/database.ts';
import { attest, beginTrail, createFlow } from './fixtures.ts';
import type { Attestation, ErrorBody, FlowAttestation, Page } from './answers.ts';
import { ADMIN_KEY, ENGINE, startServer, type TestServer } from './harness.ts';
import { WebhookReceiver } from '../support/receiver.ts';
import { waitFor } from '../support/wait.ts';

interface Mount {
  dir: string;
  remount(mode: 'ro' | 'rw'): void;
  unmount(): void;
}

const CAN_MOUNT = process.getuid?.() === 0;
const NO_MOUNT = 'mounting a small filesystem needs root (CI runs as root)';

/** A tmpfs of `sizeMb` on a fresh directory. */
function mountTmpfs(sizeMb: number): Mount {
  const dir = mkdtempSync(join(tmpdir(), 'cev-fault-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', dir]);
  return {
    dir,
    remount: (mode) => execFileSync('mount', ['-o', `remount,${mode}`, dir]),
    unmount() {
      execFileSync('umount', [dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Every file under `dir`, relative. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1));
}

/** The evidence files of a data directory, by name (their sha256). */
function evidenceFiles(dataDir: string): string[] {
  try {
    return filesUnder(join(dataDir, 'evidence')).map((path) => path.split('/').at(-1)!);
  } catch {
    return [];
  }
}

/** The attestations of a trail of flow `flow` in org acme. */
async function attestationsOf(
  server: TestServer,
  trail: string,
): Promise<Array<{ attestation_id: string; attestation_name: string }>> {
  const page = await server.get<Page<FlowAttestation>>('/api/v2/attestations/acme/flow?per_page=100');
  assert.equal(page.status, 200, page.text);
  return page.body.data.filter((record) => record.trail_name === trail);
}

/** The download path of the evidence of the attestation named `name` in a trail of flow `flow`. */
async function evidencePathOf(server: TestServer, trail: string, name: string): Promise<string> {
  const reply = await server.get<Attestation[]>(`/api/v2/attestations/acme/flow/trail/${trail}/${name}`);
  assert.equal(reply.status, 200, reply.text);
  const links = reply.body[0]._links;
  assert.ok(links, reply.text);
  return new URL(links.evidence.href).pathname;
}

function bytesOf(server: TestServer, path: string): Promise<Buffer> {
  return fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } }).then(async (response) => {
    assert.equal(response.status, 200, path);
    return Buffer.from(await response.arrayBuffer());
  });
}

describe('faults', function () {
  this.timeout(60_000);

  describe('a full disk', () => {
    let mount: Mount | undefined;
    let server: TestServer | undefined;

    before(function () {
      if (CAN_MOUNT) return;
      console.warn(`      skipped: ${NO_MOUNT}`);
      this.skip();
    });

    after(async () => {
      await server?.stop();
      mount?.unmount();
    });

    it('answers 507 saying there is no space left, keeps nothing of a refused upload, and keeps what it acknowledged', async function () {
      mount = mountTmpfs(6);
      const dataDir = join(mount.dir, 'data');
      mkdirSync(dataDir);
      server = await startServer({ process: true, dataDir, args: ['--org', 'acme', '--min-free-space', '4'] });
      assert.equal((await server.get('/ready', { key: null })).text, 'OK', 'plenty of space at first');
      await createFlow(server, 'acme', 'flow');
      await beginTrail(server, 'acme', 'flow', 'full');
      const acknowledged = new Map<string, Buffer>();
      let refused: Awaited<ReturnType<typeof attest>> | undefined;
      for (let index = 0; index < 12 && refused === undefined; index += 1) {
        const bytes = randomBytes(900 * 1024);
        const reply = await attest(
          server,
          'acme',
          'flow',
          'full',
          'generic',
          { attestation_name: `scan-${index}` },
          { filename: 'scan.bin', content: bytes },
        );
        if (reply.status === 201) acknowledged.set(`scan-${index}`, bytes);
        else refused = reply;
      }
      assert.ok(refused !== undefined, 'a 6 MB disk is full after a few 0.9 MB uploads');
      assert.ok(acknowledged.size >= 2, `${acknowledged.size} acknowledged before the disk was full`);
      assert.equal(refused.status, 507, refused.text);
      assert.deepEqual(refused.body, { message: NO_SPACE });
      assert.match(NO_SPACE, /no space left to store the evidence/);
      const again = await attest(
        server,
        'acme',
        'flow',
        'full',
        'generic',
        { attestation_name: 'again' },
        { filename: 'scan.bin', content: randomBytes(900 * 1024) },
      );
      assert.equal(again.status, 507, again.text);

      // Nothing of the refused uploads: no temporary file, no evidence file without its row.
      assert.equal(
        (await attestationsOf(server, 'full')).length,
        acknowledged.size,
        'only the acknowledged attestations exist',
      );
      const files = evidenceFiles(dataDir);
      assert.deepEqual(
        files.filter((file) => !/^[a-f0-9]{64}$/.test(file)),
        [],
        'no temporary files',
      );
      assert.equal(files.length, acknowledged.size, 'one evidence file per acknowledged attestation');

      // Warned ahead: the readiness probe stays up (reads work) and says why; so does the log.
      const ready = await server.get('/ready', { key: null });
      assert.equal(ready.status, 200);
      assert.match(ready.text, /^OK\nwarning: low disk space: [\d.]+ MB free in .*, below --min-free-space 4 MB/);
      assert.match(server.output(), /warning: low disk space/);

      // Acknowledged is durable: after a restart every acknowledged file downloads as it was sent.
      await server.stop({ keepData: true });
      server = await startServer({ process: true, dataDir, args: ['--org', 'acme', '--min-free-space', '4'] });
      const records = await attestationsOf(server, 'full');
      assert.equal(records.length, acknowledged.size);
      for (const record of records) {
        const expected = acknowledged.get(record.attestation_name);
        assert.ok(expected !== undefined, record.attestation_name);
        assert.deepEqual(
          await bytesOf(server, await evidencePathOf(server, 'full', record.attestation_name)),
          expected,
          record.attestation_name,
        );
      }
    });
  });

  describe('read-only evidence storage', () => {
    let mount: Mount | undefined;
    let server: TestServer | undefined;

    before(function () {
      if (CAN_MOUNT) return;
      console.warn(`      skipped: ${NO_MOUNT}`);
      this.skip();
    });

    after(async () => {
      await server?.stop();
      mount?.remount('rw');
      mount?.unmount();
    });

    it('answers 503 saying the storage is read-only, stores nothing, and still serves what it has', async () => {
      mount = mountTmpfs(8);
      server = await startServer({ process: true, args: ['--org', 'acme', '--evidence', mount.dir] });
      await createFlow(server, 'acme', 'flow');
      await beginTrail(server, 'acme', 'flow', 'ro');
      const first = randomBytes(1000);
      assert.equal(
        (
          await attest(
            server,
            'acme',
            'flow',
            'ro',
            'generic',
            { attestation_name: 'before' },
            { filename: 'a.bin', content: first },
          )
        ).status,
        201,
      );
      mount.remount('ro');
      const refused = await attest(
        server,
        'acme',
        'flow',
        'ro',
        'generic',
        { attestation_name: 'during' },
        { filename: 'b.bin', content: randomBytes(1000) },
      );
      assert.equal(refused.status, 503, refused.text);
      assert.deepEqual(refused.body, { message: READ_ONLY });
      const records = await attestationsOf(server, 'ro');
      assert.equal(records.length, 1, 'the refused attestation was not recorded');
      assert.deepEqual(await bytesOf(server, await evidencePathOf(server, 'ro', 'before')), first, 'reads go on');
      mount.remount('rw');
      assert.equal(
        (
          await attest(
            server,
            'acme',
            'flow',
            'ro',
            'generic',
            { attestation_name: 'after' },
            { filename: 'b.bin', content: randomBytes(1000) },
          )
        ).status,
        201,
      );
    });
  });

  describe('a database held locked by another process', () => {
    let server: TestServer;

    before(async () => {
      server = await startServer({ process: true, args: ['--org', 'acme'] });
      await createFlow(server, 'acme', 'flow');
    });

    after(async () => {
      await server.stop();
    });

    /** Takes the lock the server's writes need, the way another process would; answers how to let go. */
    async function holdWriteLock(): Promise<() => Promise<void>> {
      if (ENGINE === 'sqlite') {
        const other = new DatabaseSync(join(server.dataDir, 'cev.sqlite'));
        other.exec('BEGIN IMMEDIATE');
        return () => {
          other.exec('ROLLBACK');
          other.close();
          return Promise.resolve();
        };
      }
      const args = server.child.spawnargs;
      const client = new pg.Client({ connectionString: args[args.indexOf('--database') + 1] });
      await client.connect();
      await client.query('SELECT pg_advisory_lock($1)', [WRITE_LOCK]);
      return async () => {
        await client.query('SELECT pg_advisory_unlock($1)', [WRITE_LOCK]);
        await client.end();
      };
    }

    it('answers a write 503 saying the database is busy after the bounded wait, while reads go on, and stores nothing', async () => {
      const release = await holdWriteLock();
      let pending: ReturnType<typeof beginTrailReply>;
      try {
        pending = beginTrailReply(server, 'locked');
        // While the write waits for the lock, the server answers reads: it does not hang.
        const flow = await server.get('/api/v2/flows/acme/flow');
        assert.equal(flow.status, 200);
        const refused = await pending;
        assert.equal(refused.status, 503, refused.text);
        assert.deepEqual(refused.body, { message: DATABASE_BUSY });
        assert.equal(refused.headers['retry-after'], '1');
      } finally {
        await release();
      }
      assert.equal(
        (await server.get('/api/v2/trails/acme/flow/locked')).status,
        404,
        'the refused write stored nothing',
      );
      assert.equal((await beginTrailReply(server, 'locked')).status, 201, 'the retry succeeds once the lock is gone');
    });
  });

  describe('an evidence file gone from the disk', () => {
    let server: TestServer;

    before(async () => {
      server = await startServer({ process: true, args: ['--org', 'acme'] });
    });

    after(async () => {
      await server.stop();
    });

    it('answers its download 404 saying the file is missing, not 500', async () => {
      await createFlow(server, 'acme', 'flow');
      await beginTrail(server, 'acme', 'flow', 'lost');
      assert.equal(
        (
          await attest(
            server,
            'acme',
            'flow',
            'lost',
            'generic',
            { attestation_name: 'scan' },
            { filename: 'scan.bin', content: randomBytes(1000) },
          )
        ).status,
        201,
      );
      const [file] = filesUnder(join(server.dataDir, 'evidence'));
      unlinkSync(join(server.dataDir, 'evidence', file));
      const reply = await server.get<ErrorBody>(await evidencePathOf(server, 'lost', 'scan'));
      assert.equal(reply.status, 404, reply.text);
      assert.match(
        reply.body.message,
        /^The evidence file of attestation '[^']+' is missing from the server's evidence directory .*restore it from a backup/,
      );
      // The trail's audit package still comes, and says which file is missing.
      const response = await fetch(`${server.url}/api/v2/trails/acme/flow/lost/audit_package`, {
        headers: { authorization: `Bearer ${ADMIN_KEY}` },
      });
      assert.equal(response.status, 200);
      const archive = join(server.dataDir, 'package.tgz');
      writeFileSync(archive, Buffer.from(await response.arrayBuffer()));
      const note = execFileSync('tar', ['-xzOf', archive, 'evidence/MISSING.txt'], { encoding: 'utf8' });
      assert.match(
        note,
        new RegExp(
          `^These attestations' evidence files are missing[^\\n]*\\nscan [0-9a-f-]+: scan\\.bin \\(sha256 ${file.split('/').at(-1)}\\)\\n$`,
        ),
      );
    });
  });

  describe('a webhook target that never answers', () => {
    let server: TestServer;
    let hook: WebhookReceiver;

    before(async () => {
      hook = await WebhookReceiver.start({ hold: true });
      // The target is on loopback, which webhooks reach only with the operator's flag.
      server = await startServer({ process: true, args: ['--org', 'acme', '--allow-private-webhooks'] });
    });

    after(async () => {
      // The server stops within the harness's bound while its delivery still waits.
      await server.stop();
      await hook?.close();
    });

    it('does not hold up the request that triggered it', async () => {
      await createFlow(server, 'acme', 'flow');
      const action = await server.json('PUT', '/api/v2/actions/acme/flows', {
        name: 'hung',
        targets: [{ type: 'WEBHOOK', webhook: hook.url() }],
        flows: ['flow'],
        triggers: ['ON_STARTED_TRAIL'],
      });
      assert.equal(action.status, 201, action.text);
      const begun = beginTrailReply(server, 'hooked');
      await waitFor(() => hook.heldCount === 1, 'the delivery to reach the target');
      assert.equal((await begun).status, 201, 'answered while the target holds the delivery unanswered');
      assert.equal(hook.deliveries.length, 0, 'still unanswered');
      assert.equal((await beginTrailReply(server, 'hooked-2')).status, 201, 'and the next request too');
    });
  });

  describe('an upload cut off mid-body', () => {
    let server: TestServer;

    before(async () => {
      server = await startServer({ process: true, args: ['--org', 'acme'] });
    });

    after(async () => {
      await server.stop();
    });

    it('stores nothing of it', async () => {
      await createFlow(server, 'acme', 'flow');
      await beginTrail(server, 'acme', 'flow', 'cut');
      const boundary = 'cev-boundary-1234';
      const head = [
        `--${boundary}`,
        'content-disposition: form-data; name="data_json"',
        '',
        JSON.stringify({ attestation_name: 'cut' }),
        `--${boundary}`,
        'content-disposition: form-data; name="attachment_file"; filename="scan.bin"',
        'content-type: application/octet-stream',
        '',
        '',
      ].join('\r\n');
      const file = randomBytes(2 * 1024 * 1024);
      const length = Buffer.byteLength(head) + file.length + Buffer.byteLength(`\r\n--${boundary}--\r\n`);
      const socket = connect(server.port, '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', resolve));
      socket.write(
        [
          'POST /api/v2/attestations/acme/flow/trail/cut/generic HTTP/1.1',
          'host: 127.0.0.1',
          `authorization: Bearer ${ADMIN_KEY}`,
          `content-type: multipart/form-data; boundary=${boundary}`,
          `content-length: ${length}`,
          '',
          '',
        ].join('\r\n'),
      );
      socket.write(head);
      // Half the file, then the client goes away.
      await new Promise<void>((resolve) => socket.write(file.subarray(0, file.length / 2), () => resolve()));
      socket.destroy();
      // A complete upload after it is stored: the server is fine and the cut one is not there.
      const whole = randomBytes(1000);
      assert.equal(
        (
          await attest(
            server,
            'acme',
            'flow',
            'cut',
            'generic',
            { attestation_name: 'whole' },
            { filename: 'w.bin', content: whole },
          )
        ).status,
        201,
      );
      const records = await attestationsOf(server, 'cut');
      assert.equal(records.length, 1);
      assert.deepEqual(
        evidenceFiles(server.dataDir).length,
        1,
        'only the complete upload has a file; no temporary file',
      );
      assert.doesNotMatch(server.output(), /→ 5\d\d/, 'a client that went away is no server fault');
    });
  });

  describe('a server that is stopping', () => {
    it('finishes a request in flight and answers one that arrives meanwhile 503 saying it is stopping', async () => {
      const server = await startServer({ process: true, args: ['--org', 'acme'] });
      try {
        await createFlow(server, 'acme', 'flow');
        const body = `--b\r\ncontent-disposition: form-data; name="data_json"\r\n\r\n${JSON.stringify({ name: 'last' })}\r\n--b--\r\n`;
        const socket = connect(server.port, '127.0.0.1');
        const received: Buffer[] = [];
        socket.on('data', (chunk: Buffer) => received.push(chunk));
        const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
        await new Promise<void>((resolve) => socket.once('connect', resolve));
        const head = `PUT /api/v2/trails/acme/flow HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${ADMIN_KEY}\r\ncontent-type: multipart/form-data; boundary=b\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n`;
        socket.write(head + body.slice(0, 20));
        // A round trip on another connection: the server has read the first request's start by now.
        assert.equal((await server.get('/ready', { key: null })).status, 200);
        server.child.kill('SIGTERM');
        await waitFor(() => refusesConnections(server.port), 'the server to stop listening');
        socket.write(
          body.slice(20) + `GET /api/v2/flows/acme HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${ADMIN_KEY}\r\n\r\n`,
        );
        await ended;
        const text = Buffer.concat(received).toString();
        assert.match(text, /^HTTP\/1\.1 201 /, 'the request in flight finished');
        assert.match(
          text,
          /HTTP\/1\.1 503 [^\n]*\r\n[\s\S]*retry-after: 1\r\n/i,
          'the one that arrived meanwhile did not',
        );
        assert.deepEqual(JSON.parse(text.slice(text.lastIndexOf('\r\n\r\n') + 4)), { message: STOPPING });
      } finally {
        // Signalled once already: wait for the exit rather than signal again.
        await waitFor(() => server.child.exitCode !== null || server.child.signalCode !== null, 'the server to exit');
        assert.equal(await server.stop(), 0, 'a clean stop');
      }
    });
  });

  describe('the admin key', () => {
    it('is not on the command line of a server the tests start', async () => {
      const server = await startServer({ process: true, args: ['--org', 'acme'] });
      try {
        const commandLine = readFileSync(`/proc/${server.pid}/cmdline`, 'utf8');
        assert.ok(!commandLine.includes(ADMIN_KEY), commandLine.split('\0').join(' '));
        assert.equal((await server.get('/api/v2/flows/acme')).status, 200, 'and it is the admin key');
      } finally {
        await server.stop();
      }
    });
  });
});

function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(port, '127.0.0.1');
    probe.once('connect', () => {
      probe.destroy();
      resolve(false);
    });
    probe.once('error', () => resolve(true));
  });
}

function beginTrailReply(server: TestServer, name: string) {
  return server.multipart('PUT', '/api/v2/trails/acme/flow', { data_json: JSON.stringify({ name }) });
}
