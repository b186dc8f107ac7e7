// The SQLite database file on a full disk: a write answers 507 saying there is no space left and
// stores nothing; once space is freed, writes succeed again without a restart. (On PostgreSQL the
// database's disk is not the server's: test/api/postgres.mocharc.json leaves this file out.)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NO_SPACE } from '../../server/api/faults.ts';
import { beginTrail, createFlow } from './fixtures.ts';
import type { FlowAttestation, Page } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';

/** Fills the filesystem of `file` until it has no space left. */
function fillUp(file: string): void {
  const descriptor = openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) writeSync(descriptor, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(descriptor);
  }
}

describe('faults: the SQLite database on a full disk', function () {
  this.timeout(60_000);
  let mount: string | undefined;
  let server: TestServer | undefined;

  before(function () {
    if (process.getuid?.() === 0) return;
    console.warn('      skipped: mounting a small filesystem needs root (CI runs as root)');
    this.skip();
  });

  after(async () => {
    await server?.stop();
    if (mount !== undefined) {
      execFileSync('umount', [mount]);
      rmSync(mount, { recursive: true, force: true });
    }
  });

  it('answers a write 507 saying there is no space left, stores nothing, and recovers once space is freed', async () => {
    mount = mkdtempSync(join(tmpdir(), 'cev-fault-db-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=6m', 'tmpfs', mount]);
    const dataDir = join(mount, 'data');
    mkdirSync(dataDir);
    server = await startServer({ dataDir, args: ['--org', 'acme', '--min-free-space', '0'] });
    await createFlow(server, 'acme', 'flow');
    await beginTrail(server, 'acme', 'flow', 'full');
    const filler = join(mount, 'filler');
    fillUp(filler);
    // No evidence file: each attestation's row alone (its user_data) needs new database pages.
    const user_data = { log: 'x'.repeat(200_000) };
    let refused: Awaited<ReturnType<TestServer['multipart']>> | undefined;
    let acknowledged = 0;
    for (let index = 0; index < 20 && refused === undefined; index += 1) {
      const reply = await server.multipart('POST', '/api/v2/attestations/acme/flow/trail/full/generic', {
        data_json: JSON.stringify({ attestation_name: `row-${index}`, user_data }),
      });
      if (reply.status === 201) acknowledged += 1;
      else refused = reply;
    }
    assert.ok(refused !== undefined, 'the full disk refuses a database write');
    assert.equal(refused.status, 507, refused.text);
    assert.deepEqual(refused.body, { message: NO_SPACE });
    const listed = await server.get<Page<FlowAttestation>>('/api/v2/attestations/acme/flow?per_page=100');
    assert.equal(listed.body.data.length, acknowledged, 'the refused write stored nothing');

    unlinkSync(filler);
    const after = await server.multipart('POST', '/api/v2/attestations/acme/flow/trail/full/generic', {
      data_json: JSON.stringify({ attestation_name: 'after', user_data }),
    });
    assert.equal(after.status, 201, after.text);
    assert.equal(
      (await server.get<Page<FlowAttestation>>('/api/v2/attestations/acme/flow?per_page=100')).body.data.length,
      acknowledged + 1,
    );
  });
});
