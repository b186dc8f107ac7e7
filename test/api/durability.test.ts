// An acknowledged write survives a restart and a crash; a crash leaves nothing half-written.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import type { Artifact, Attestation, FlowAttestation, IssuedApiKey, Page, ServiceAccount, Trail } from './answers.ts';
import { startServer, type Reply, type TestServer } from './harness.ts';
import { attest, attestArtifact, beginTrail, commit, createFlow, fingerprint, WORKED_TEMPLATE } from './fixtures.ts';

/** The bytes of an attestation's evidence file, downloaded from the link the attestation gives. */
async function evidenceBytes(server: TestServer, attestation: Attestation): Promise<Buffer> {
  const href = attestation._links?.evidence?.href;
  assert.ok(href !== undefined, `${attestation.attestation_name} links its evidence`);
  const response = await fetch(`${server.url}${new URL(href).pathname}`, {
    headers: { authorization: `Bearer ${server.key}` },
  });
  assert.equal(response.status, 200);
  return Buffer.from(await response.arrayBuffer());
}

describe('durability', () => {
  it('finds everything after a restart on the same data directory', async () => {
    const first = await startServer({ process: true, args: ['--org', 'acme'] });
    const evidence = randomBytes(50_000);
    let snapshot: { trail: unknown; attestations: unknown; artifacts: unknown; accounts: unknown };
    let key: string;
    try {
      await createFlow(first, 'acme', 'kept', WORKED_TEMPLATE);
      await beginTrail(first, 'acme', 'kept', 't1');
      assert.equal(
        (
          await attest(
            first,
            'acme',
            'kept',
            't1',
            'generic',
            { attestation_name: 'bar' },
            { filename: 'e.bin', content: evidence },
          )
        ).status,
        201,
      );
      await attestArtifact(first, 'acme', 'kept', {
        fingerprint: fingerprint('kept'),
        filename: 'kept.tgz',
        git_commit: commit('kept'),
        trail_name: 't1',
        template_reference_name: 'cli',
      });
      await first.json('POST', '/api/v2/service-accounts/acme', { name: 'bot', privilege: 'reader' });
      key = (await first.json<IssuedApiKey>('POST', '/api/v2/service-accounts/acme/bot/api-keys', { description: 'k' }))
        .body.key;
      snapshot = {
        trail: (await first.get<Trail>('/api/v2/trails/acme/kept/t1')).body,
        attestations: (await first.get<Page<FlowAttestation>>('/api/v2/attestations/acme/kept?per_page=100')).body.data,
        artifacts: (await first.get<Artifact[]>('/api/v2/artifacts/acme')).body,
        accounts: (await first.get<ServiceAccount[]>('/api/v2/service-accounts/acme')).body,
      };
    } finally {
      assert.equal(await first.stop({ keepData: true }), 0);
    }
    const second = await startServer({ process: true, dataDir: first.dataDir, args: ['--org', 'acme'] });
    try {
      const port = (value: unknown) => JSON.stringify(value).replaceAll(first.url, 'URL').replaceAll(second.url, 'URL');
      assert.equal(port((await second.get<Trail>('/api/v2/trails/acme/kept/t1')).body), port(snapshot.trail));
      assert.equal(
        port((await second.get<Page<FlowAttestation>>('/api/v2/attestations/acme/kept?per_page=100')).body.data),
        port(snapshot.attestations),
      );
      assert.equal(port((await second.get<Artifact[]>('/api/v2/artifacts/acme')).body), port(snapshot.artifacts));
      assert.deepEqual((await second.get<ServiceAccount[]>('/api/v2/service-accounts/acme')).body, snapshot.accounts);
      assert.equal((await second.get('/api/v2/flows/acme', { key })).status, 200, 'an issued key still works');
      const stored = (await second.get<Attestation[]>('/api/v2/attestations/acme/kept/trail/t1/bar')).body[0];
      assert.deepEqual(await evidenceBytes(second, stored), evidence);
    } finally {
      await second.stop();
    }
  });

  it('keeps every acknowledged attestation of 100 in flight when killed with SIGKILL, and nothing half-written', async function () {
    this.timeout(120_000);
    const server = await startServer({ process: true, args: ['--org', 'acme'] });
    await createFlow(server, 'acme', 'crash');
    await beginTrail(server, 'acme', 'crash', 'in-flight');
    const contentOf = (index: number): Buffer => createHash('sha256').update(`evidence-${index}`).digest();
    const acknowledged = new Set<string>();
    let answered = 0;
    let killed: Promise<void> | undefined;
    const requests = Array.from({ length: 100 }, async (_, index) => {
      const name = `a${index}`;
      let reply: Reply | undefined;
      try {
        reply = await attest(
          server,
          'acme',
          'crash',
          'in-flight',
          'generic',
          { attestation_name: name },
          { filename: `${name}.bin`, content: contentOf(index) },
        );
      } catch {
        return;
      }
      assert.ok(reply.status < 500, `${name}: ${reply.status} ${reply.text}`);
      if (reply.status === 201) acknowledged.add(name);
      answered += 1;
      if (answered === 25) killed = server.kill();
    });
    await Promise.all(requests);
    await killed;
    assert.ok(acknowledged.size >= 25, `${acknowledged.size} acknowledged before the kill`);
    assert.ok(acknowledged.size < 100, 'the kill happened while requests were in flight');

    const restarted = await startServer({ process: true, dataDir: server.dataDir, args: ['--org', 'acme'] });
    try {
      const trail = (await restarted.get<Trail>('/api/v2/trails/acme/crash/in-flight')).body;
      const stored = (await restarted.get<Page<FlowAttestation>>('/api/v2/attestations/acme/crash?per_page=100')).body
        .data;
      const storedNames = new Set(stored.map((record) => record.attestation_name));
      for (const name of acknowledged) assert.ok(storedNames.has(name), `acknowledged ${name} is missing`);
      const eventIds = new Set(
        trail.events
          .filter((event) => event.type === 'trail_attestation_reported')
          .map((event) => event.attestation_id),
      );
      assert.equal(eventIds.size, stored.length, 'one event per stored attestation');
      for (const record of stored) {
        assert.ok(eventIds.has(record.attestation_id), `no event for ${record.attestation_name}`);
        const full = (
          await restarted.get<Attestation[]>(
            `/api/v2/attestations/acme/crash/trail/in-flight/${record.attestation_name}`,
          )
        ).body[0];
        const index = Number(record.attestation_name.slice(1));
        assert.deepEqual(
          await evidenceBytes(restarted, full),
          contentOf(index),
          `evidence of ${record.attestation_name}`,
        );
      }
      assert.equal(trail.compliance_status.attestations_statuses.length, stored.length);
    } finally {
      await restarted.stop();
    }
  });
});
