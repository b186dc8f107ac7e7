// View models of an artifact (where it runs and ran, its attestations, provenance) and of a flow
// with one page of its trails, and the flow list.
import assert from 'node:assert/strict';
import { artifactDisplay } from '../../shared/display/artifact.ts';
import { flowDisplay, flowListDisplay } from '../../shared/display/flow.ts';
import { pagingOf } from '../../shared/display/links.ts';

const FP = 'e'.repeat(64);

describe('artifact display model', () => {
  const display = artifactDisplay({
    id: 'art-1',
    fingerprint: FP,
    filename: 'app.tgz',
    flow_name: 'backend',
    trail_name: 'release-1',
    template_reference_name: 'app',
    created_at: '1700000000',
    git_commit: 'abc',
    git_commit_info: { sha1: 'abc', message: 'fix', author: 'dev', branch: 'main' },
    commit_url: '',
    build_url: 'https://ci.test/7',
    repo_url: 'javascript:alert(1)',
    html_url: 'http://h/acme/flows/backend/artifacts/x',
    api_url: 'http://h/api',
    external_urls: { sbom: 'https://sbom.test/1' },
    annotations: {},
    user_data: { owner: '<i>team</i>' },
    evidence: {
      attestations: [
        { attestation_id: 'a1', attestation_name: 'sbom', is_compliant: true },
        { attestation_id: 'a2', attestation_name: 'scan', is_compliant: false },
        { attestation_id: 'a3', attestation_name: 'note', is_compliant: null },
      ],
    },
    state: 'NON-COMPLIANT',
    running: [{ environment_name: 'prod', snapshot_index: 4 }],
    exited: [{ environment_name: 'staging', snapshot_index: 2 }],
    history: [{ event: 'cli reported', timestamp: 1_700_000_000 }],
  });

  it('shows where it runs now and where it ran, linked to those snapshots', () => {
    assert.deepEqual(
      display.running.map((placement) => [placement.label, placement.snapshotRef]),
      [['prod#4', { kind: 'snapshot', environment: 'prod', index: 4 }]],
    );
    assert.deepEqual(
      display.exited.map((placement) => [placement.label, placement.environmentRef]),
      [['staging#2', { kind: 'environment', environment: 'staging' }]],
    );
    assert.equal(display.createdAt, '2023-11-14T22:13:20.000Z', 'list items send created_at as a string of seconds');
  });

  it('shows its attestations, provenance, and user links only for http(s)', () => {
    assert.deepEqual(
      display.attestations.map((entry) => [entry.name, entry.status.state, entry.ref]),
      [
        ['sbom', 'COMPLIANT', { kind: 'attestation', flow: 'backend', trail: 'release-1', attestationId: 'a1' }],
        ['scan', 'NON-COMPLIANT', { kind: 'attestation', flow: 'backend', trail: 'release-1', attestationId: 'a2' }],
        ['note', 'UNKNOWN', { kind: 'attestation', flow: 'backend', trail: 'release-1', attestationId: 'a3' }],
      ],
    );
    const { provenance } = display;
    assert.deepEqual(
      [provenance.flowRef, provenance.trailRef, provenance.templateReferenceName],
      [{ kind: 'flow', flow: 'backend' }, { kind: 'trail', flow: 'backend', trail: 'release-1' }, 'app'],
    );
    assert.deepEqual(provenance.commit, { sha: 'abc', message: 'fix', author: 'dev', branch: 'main' });
    assert.equal(provenance.commitUrl, null);
    assert.equal(provenance.buildUrl?.ref?.kind, 'external');
    assert.deepEqual(provenance.repoUrl, { label: 'repository', url: 'javascript:alert(1)', ref: null });
    assert.deepEqual([display.annotations, display.userData], [null, '{\n  "owner": "<i>team</i>"\n}']);
    assert.deepEqual(display.history, [{ time: '2023-11-14T22:13:20.000Z', event: 'cli reported' }]);
  });
});

describe('flow display models', () => {
  it('shows a flow with one page of its trails, placeholders kept as rows', () => {
    const display = flowDisplay(
      {
        name: 'backend',
        description: 'the API',
        visibility: 'private',
        template: 'version: 1\n',
        tags: { team: 'core' },
        created_at: 1,
        created_by: 'ci',
        repo_url: null,
        latest_state: 'COMPLIANT',
      },
      {
        data: [
          {
            name: 'release-2',
            compliance_state: 'NON-COMPLIANT',
            description: '',
            created_at: 2,
            last_modified_at: 3,
            git_commit_info: { sha1: 'def' },
          },
          { placeholder: true, id: 'release-1', message: 'This trail could not be shown' },
        ],
        pagination: { total: 41, page: 2, per_page: 20, page_count: 3 },
      },
    );
    assert.deepEqual(
      display.trails.map((row) => [row.name, row.status.state, row.commit, row.problem]),
      [
        ['release-2', 'NON-COMPLIANT', 'def', null],
        ['release-1', 'UNKNOWN', '', 'This trail could not be shown'],
      ],
    );
    assert.deepEqual(display.trails[0].ref, { kind: 'trail', flow: 'backend', trail: 'release-2' });
    assert.deepEqual(display.paging, { page: 2, perPage: 20, total: 41, pageCount: 3, previous: 1, next: 3 });
    assert.deepEqual(display.tags, [{ name: 'team', value: 'core' }]);
    assert.equal(display.repo, null);
  });

  it('reads the flow list as an array or a page', () => {
    const list = flowListDisplay([
      { name: 'a', latest_state: 'COMPLIANT', latest_activity_at: null },
      { name: 'b', latest_state: null },
    ]);
    assert.deepEqual(
      list.flows.map((row) => [row.name, row.latestState?.state ?? null, row.ref]),
      [
        ['a', 'COMPLIANT', { kind: 'flow', flow: 'a' }],
        ['b', null, { kind: 'flow', flow: 'b' }],
      ],
    );
    assert.deepEqual(list.paging, { page: 1, perPage: 2, total: 2, pageCount: 1, previous: null, next: null });
    assert.deepEqual(
      flowListDisplay({ data: [], pagination: { total: 0, page: 1, per_page: 20, page_count: 0 } }).flows,
      [],
    );
  });

  it('pages: a page past the end points back to the last page', () => {
    assert.deepEqual(pagingOf(9, 20, 41), { page: 9, perPage: 20, total: 41, pageCount: 3, previous: 3, next: null });
    assert.deepEqual(pagingOf(1, 20, 0), { page: 1, perPage: 20, total: 0, pageCount: 0, previous: null, next: null });
  });
});
