// A flow's latest_state is kept on write (migration 203): the flow list reads the stored state,
// and after every kind of write it is the state the single flow's answer evaluates on read.
import assert from 'node:assert/strict';
import type { Flow, Page, Trail } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';
import { attest, attestArtifact, beginTrail, commit, createFlow, fingerprint } from './fixtures.ts';

const TEMPLATE = [
  'version: 1',
  'trail:',
  '  attestations:',
  '    - name: check',
  '      type: generic',
  '  artifacts:',
  '    - name: cli',
  '',
].join('\n');

/** A template whose artifact slot asks for an attestation of its own. */
const BOUND_TEMPLATE = [
  'version: 1',
  'trail:',
  '  attestations:',
  '    - name: check',
  '      type: generic',
  '  artifacts:',
  '    - name: cli',
  '      attestations:',
  '        - name: sbom',
  '          type: generic',
  '',
].join('\n');

describe('flow latest_state kept on write', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ args: ['--org', 'acme'] });
    await createFlow(server, 'acme', 'kept', TEMPLATE);
    await createFlow(server, 'acme', 'other', TEMPLATE);
    await createFlow(server, 'acme', 'bound', BOUND_TEMPLATE);
  });
  after(async () => {
    await server?.stop();
  });

  /**
   * Each flow's latest_state as the list shows it, checked against the single flow's answer and
   * against the state its latest trail's answer evaluates on read (every slot's status).
   */
  const states = async (): Promise<Record<string, unknown>> => {
    const listed = ((await server.get('/api/v2/flows/acme?page=1&per_page=20')).body as Page<Flow>).data;
    const result: Record<string, unknown> = {};
    for (const flow of listed) {
      const single = (await server.get(`/api/v2/flows/acme/${flow.name}`)).body as Flow;
      assert.equal(flow.latest_state, single.latest_state, `latest_state of ${flow.name}`);
      assert.equal(flow.latest_activity_at, single.latest_activity_at, `latest_activity_at of ${flow.name}`);
      // Newest first: on a tie of last_modified_at the newer trail is the flow's latest.
      const trails = (await server.get(`/api/v2/trails/acme/${flow.name}`)).body as Trail[];
      const latest = trails.reduce<Trail | undefined>(
        (found, trail) => (found === undefined || trail.last_modified_at > found.last_modified_at ? trail : found),
        undefined,
      );
      assert.equal(flow.latest_state, latest?.compliance_status.status ?? null, `evaluated state of ${flow.name}`);
      result[flow.name] = flow.latest_state;
    }
    return result;
  };

  it('follows trails begun, attested, reported and updated', async () => {
    assert.deepEqual(await states(), { bound: null, kept: null, other: null });
    await beginTrail(server, 'acme', 'kept', 't1');
    assert.deepEqual(await states(), { bound: null, kept: 'INCOMPLETE', other: null });
    await attestArtifact(server, 'acme', 'kept', {
      fingerprint: fingerprint('t1'),
      filename: 'cli',
      git_commit: commit('t1'),
      trail_name: 't1',
      template_reference_name: 'cli',
    });
    assert.deepEqual(await states(), { bound: null, kept: 'INCOMPLETE', other: null });
    assert.equal((await attest(server, 'acme', 'kept', 't1', 'generic', { attestation_name: 'check' })).status, 201);
    assert.deepEqual(await states(), { bound: null, kept: 'COMPLIANT', other: null });
    const failed = await attest(server, 'acme', 'kept', 't1', 'generic', {
      attestation_name: 'check',
      is_compliant: false,
    });
    assert.equal(failed.status, 201);
    assert.deepEqual(await states(), { bound: null, kept: 'NON-COMPLIANT', other: null });
    // A newer trail is the flow's latest; an update of the older one makes it the latest again.
    await beginTrail(server, 'acme', 'kept', 't2');
    assert.deepEqual(await states(), { bound: null, kept: 'INCOMPLETE', other: null });
    await beginTrail(server, 'acme', 'kept', 't1', { description: 'again' });
    await states();
    await beginTrail(server, 'acme', 'other', 'o1');
    assert.equal((await states()).other, 'INCOMPLETE');
  });

  it('follows attestations bound to artifacts, a new artifact in a slot, versions and overrides', async () => {
    const bound = async (): Promise<unknown> => (await states()).bound;
    const report = (label: string) =>
      attestArtifact(server, 'acme', 'bound', {
        fingerprint: fingerprint(label),
        filename: 'cli',
        git_commit: commit('b1'),
        trail_name: 'b1',
        template_reference_name: 'cli',
      });
    const sbom = async (data: Record<string, unknown>) =>
      assert.equal(
        (await attest(server, 'acme', 'bound', 'b1', 'generic', { attestation_name: 'sbom', ...data })).status,
        201,
      );
    await beginTrail(server, 'acme', 'bound', 'b1');
    assert.equal((await attest(server, 'acme', 'bound', 'b1', 'generic', { attestation_name: 'check' })).status, 201);
    assert.equal(await bound(), 'INCOMPLETE');
    // Bound by commit before the artifact arrives: it waits, then counts.
    await sbom({ target_artifacts: ['cli'], git_commit_info: { sha1: commit('b1') } });
    assert.equal(await bound(), 'INCOMPLETE');
    await report('b1');
    assert.equal(await bound(), 'COMPLIANT');
    await sbom({ artifact_fingerprint: fingerprint('b1'), is_compliant: false });
    assert.equal(await bound(), 'NON-COMPLIANT');
    // A new artifact in the slot: the attestation bound to the old fingerprint no longer speaks for it.
    await report('b1-rebuilt');
    await bound();
    await sbom({ artifact_fingerprint: fingerprint('b1-rebuilt') });
    await bound();
    for (const compliant of [false, true]) {
      const override = await server.json('POST', '/api/v2/attestations/acme/bound/trail/b1/override', {
        attestation_name: 'check',
        reason: 'accepted risk',
        new_compliance_status: compliant,
        original_attestation_type: 'generic',
      });
      assert.equal(override.status, 200);
      await bound();
    }
    assert.equal(
      (await attest(server, 'acme', 'bound', 'b1', 'generic', { attestation_name: 'check', is_compliant: false }))
        .status,
      201,
    );
    assert.equal(await bound(), 'NON-COMPLIANT');
  });

  it('keeps the states across a restart and a flow template change', async () => {
    const before = await states();
    await createFlow(server, 'acme', 'kept', 'version: 1\n');
    assert.deepEqual(await states(), before, 'trails keep the template they began with');
    await server.stop({ keepData: true });
    server = await startServer({ args: ['--org', 'acme'], dataDir: server.dataDir });
    assert.deepEqual(await states(), before);
    await beginTrail(server, 'acme', 'kept', 't3');
    assert.equal((await states()).kept, 'COMPLIANT', 'a trail of the empty template has nothing missing');
  });
});
