// The fields of the hosted service's answers that clients read (reference §8.5), each filled from
// what the server stores and checked for its value in a real scenario, on either engine. The
// harness also holds every answer to the contract, where these fields are required.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { Attestation } from './answers.ts';
import { attest, beginTrail, createFlow } from './fixtures.ts';
import { startServer, type TestServer } from './harness.ts';

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
});
