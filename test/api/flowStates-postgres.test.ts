// Trail states kept on write (migration 203) when attestations commit concurrently on PostgreSQL
// (store/postgres/database.ts concurrent()): their commit evaluates the trails they wrote, so once
// an attestation is answered the stored trail state and the flow's latest_state are right, and
// the flow list reads them without evaluating anything.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Flow, Page } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';
import { attest, beginTrail, createFlow } from './fixtures.ts';
import { startPostgres, type PostgresServer } from './postgres.ts';

const TEMPLATE = [
  'version: 1',
  'trail:',
  '  attestations:',
  '    - name: check',
  '      type: generic',
  '    - name: sbom',
  '      type: generic',
  '',
].join('\n');

/** What each flow's trail is sent, all at once, and the state it ends in. */
const PLAN: Record<string, { attestations: Array<{ name: string; compliant: boolean }>; state: string }> = {
  passing: { attestations: versions({ check: true, sbom: true }), state: 'COMPLIANT' },
  failing: { attestations: versions({ check: true, sbom: false }), state: 'NON-COMPLIANT' },
  waiting: { attestations: versions({ check: true }), state: 'INCOMPLETE' },
};

/** Five versions of each named attestation, each with the compliance given. */
function versions(compliance: Record<string, boolean>): Array<{ name: string; compliant: boolean }> {
  return Object.entries(compliance).flatMap(([name, compliant]) =>
    Array.from({ length: 5 }, () => ({ name, compliant })),
  );
}

describe('PostgreSQL: trail states kept by concurrent attestations', function () {
  this.timeout(60_000);
  let postgres: PostgresServer;
  let database: pg.Client;
  let evidence: string;
  const instances: TestServer[] = [];

  before(async () => {
    postgres = await startPostgres();
    const url = await postgres.createDatabase('states');
    evidence = mkdtempSync(join(tmpdir(), 'cev-evidence-'));
    for (let i = 0; i < 2; i++)
      instances.push(await startServer({ args: ['--org', 'acme', '--database', url, '--evidence', evidence] }));
    database = new pg.Client({ connectionString: url });
    await database.connect();
  });
  after(async () => {
    await database?.end();
    for (const instance of instances) await instance.stop().catch(() => undefined);
    await postgres?.stop();
    rmSync(evidence, { recursive: true, force: true });
  });

  /** Each flow's stored latest_state and its trail's stored compliance_state. */
  const stored = async (): Promise<Record<string, { latest: unknown; trail: unknown }>> =>
    Object.fromEntries(
      (
        await database.query<{ name: string; latest_state: unknown; compliance_state: unknown }>(
          'SELECT f.name, f.latest_state, t.compliance_state FROM flows f JOIN trails t ON t.flow_id = f.id ORDER BY f.name',
        )
      ).rows.map((row) => [row.name, { latest: row.latest_state, trail: row.compliance_state }]),
    );
  const listed = async (server: TestServer): Promise<Record<string, unknown>> =>
    Object.fromEntries(
      ((await server.get('/api/v2/flows/acme?page=1&per_page=20')).body as Page<Flow>).data.map((flow) => [
        flow.name,
        flow.latest_state,
      ]),
    );

  it('stores each trail state and latest_state by the time the attestations are answered', async () => {
    const [a, b] = instances as [TestServer, TestServer];
    for (const flow of Object.keys(PLAN)) {
      await createFlow(a, 'acme', flow, TEMPLATE);
      await beginTrail(a, 'acme', flow, 'build');
    }
    const sent = Object.entries(PLAN).flatMap(([flow, { attestations }]) =>
      attestations.map((attestation) => ({ flow, ...attestation })),
    );
    const replies = await Promise.all(
      sent.map(({ flow, name, compliant }, i) =>
        attest(i % 2 === 0 ? a : b, 'acme', flow, 'build', 'generic', {
          attestation_name: name,
          is_compliant: compliant,
        }),
      ),
    );
    assert.deepEqual(
      replies.map((reply) => reply.status),
      sent.map(() => 201),
    );
    const expected = Object.fromEntries(Object.entries(PLAN).map(([flow, { state }]) => [flow, state]));
    assert.deepEqual(
      await stored(),
      Object.fromEntries(Object.entries(expected).map(([flow, state]) => [flow, { latest: state, trail: state }])),
    );
    const queued = await database.query('SELECT trail_id FROM trails_to_evaluate');
    assert.equal(queued.rowCount, 0, 'no trail left for a later write to evaluate');
    for (const server of instances) {
      assert.deepEqual(await listed(server), expected);
      for (const flow of Object.keys(PLAN)) {
        const single = (await server.get(`/api/v2/flows/acme/${flow}`)).body as Flow;
        assert.equal(single.latest_state, expected[flow], `${flow} evaluated on read`);
      }
    }
  });

  it('lists the stored latest_state, evaluating nothing on read', async () => {
    await database.query(`UPDATE flows SET latest_state = 'NON-COMPLIANT' WHERE name = 'waiting'`);
    try {
      for (const server of instances) assert.equal((await listed(server)).waiting, 'NON-COMPLIANT');
    } finally {
      await database.query(`UPDATE flows SET latest_state = 'INCOMPLETE' WHERE name = 'waiting'`);
    }
  });
});
