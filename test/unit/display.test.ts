// View models: API objects in, display data out (design §10). The trail's compliance_status comes
// from the same evaluateTrail the server answers with.
import assert from 'node:assert/strict';
import { evaluateTrail } from '../../shared/compliance/index.ts';
import { attestationDisplay } from '../../shared/display/attestation.ts';
import { externalRef } from '../../shared/display/links.ts';
import { trailDisplay } from '../../shared/display/trail.ts';

const FP = 'c'.repeat(64);
const template = {
  trail: {
    attestations: [
      { name: 'tests', type: 'junit' },
      { name: 'review', type: 'pull_request' },
      { name: 'scan', type: 'scan' },
    ],
    artifacts: [{ name: 'cli', attestations: [{ name: 'sbom', type: 'generic' }] }],
  },
};

function trailObject(): Record<string, unknown> {
  const evaluation = evaluateTrail(
    template,
    [
      { id: 'a-tests', name: 'tests', type: 'junit', is_compliant: false, created_at: 10 },
      { id: 'a-scan', name: 'scan', type: 'scan', is_compliant: true, created_at: 11 },
      { id: 'a-scan-2', name: 'scan', type: 'scan', is_compliant: true, created_at: 12, is_override: true },
      { id: 'a-extra', name: 'extra', type: 'generic', is_compliant: true, created_at: 13 },
    ],
    [{ id: 'art-1', fingerprint: FP, template_reference_name: 'cli', created_at: 9 }],
    14,
  );
  return {
    name: 'release-1',
    description: 'the release',
    created_at: 1,
    created_by: 'ci',
    ...evaluation,
    flow: { name: 'backend', tags: {} },
    origin_url: 'javascript:alert(1)',
    git_commit_info: {
      sha1: 'abc',
      message: 'fix',
      author: 'dev',
      branch: 'main',
      url: 'https://git.example.test/c/abc',
    },
    user_data: { ticket: '<b>1</b>' },
    external_urls: { build: { href: 'https://ci.example.test/7' }, bad: 'data:text/html,x' },
    events: [{ type: 'trail_started', timestamp: 1, user: 'ci' }],
  };
}

describe('trail display model', () => {
  const display = trailDisplay(trailObject(), [
    { attestation_id: 'a-tests', attestation_name: 'tests', attestation_type: 'junit', is_compliant: false },
    {
      attestation_id: 'a-scan-2',
      attestation_name: 'scan',
      attestation_type: 'scan',
      is_compliant: true,
      override_reason: 'accepted risk',
    },
  ]);

  it('shows every template slot with its status and why', () => {
    const slot = (name: string) => display.slots.find((entry) => entry.name === name)!;
    assert.equal(display.status.state, 'NON-COMPLIANT');
    assert.deepEqual(
      display.slots.map((entry) => [entry.artifact, entry.name, entry.status.state, entry.unexpected]),
      [
        [null, 'tests', 'NON-COMPLIANT', false],
        [null, 'review', 'MISSING', false],
        [null, 'scan', 'COMPLIANT', false],
        [null, 'extra', 'COMPLIANT', true],
        ['cli', 'sbom', 'MISSING', false],
      ],
    );
    assert.equal(slot('tests').status.reason, 'the junit attestation tests is non-compliant');
    assert.deepEqual(slot('tests').attestation, {
      kind: 'attestation',
      flow: 'backend',
      trail: 'release-1',
      attestationId: 'a-tests',
    });
    assert.equal(slot('review').status.reason, 'no pull_request attestation named review has been reported');
    assert.equal(slot('review').attestation, null);
    assert.equal(slot('scan').status.reason, 'overridden as compliant: accepted risk');
    assert.deepEqual(slot('scan').overridden, {
      kind: 'attestation',
      flow: 'backend',
      trail: 'release-1',
      attestationId: 'a-scan',
    });
    assert.equal(slot('extra').status.reason, 'Not in the template; the generic attestation extra is compliant');
    // No attestation id is a reason: the slot's link goes to the attestation.
    assert.doesNotMatch(display.slots.map((entry) => entry.status.reason).join(' '), /a-tests|a-scan|a-extra/);
    assert.equal(display.status.reason, '1 attestation fails: tests. 2 are not reported yet: review and sbom.');
  });

  it('says why a slot fails in the words its attestation gives, when they were read', () => {
    const withReasons = trailDisplay(trailObject(), [
      {
        attestation_id: 'a-tests',
        attestation_name: 'tests',
        attestation_type: 'junit',
        is_compliant: false,
        reasons: ['api unit tests: 1 failure', 'smoke: 2 errors'],
      },
    ]);
    assert.equal(
      withReasons.slots.find((entry) => entry.name === 'tests')?.status.reason,
      'api unit tests: 1 failure; smoke: 2 errors',
    );
  });

  it('shows the artifacts, commit, links only for http(s), user data and events as text', () => {
    assert.deepEqual(display.artifacts, [
      {
        name: 'cli',
        status: {
          state: 'INCOMPLETE',
          colour: 'pending',
          reason: '1 attestation is not reported yet: sbom.',
        },
        fingerprint: FP,
        unexpected: false,
        ref: { kind: 'artifact', flow: 'backend', fingerprint: FP, trail: 'release-1' },
      },
    ]);
    assert.equal(display.commit?.sha, 'abc');
    assert.deepEqual(display.commit?.url?.ref, { kind: 'external', url: 'https://git.example.test/c/abc' });
    assert.deepEqual(display.origin, { label: 'origin', url: 'javascript:alert(1)', ref: null });
    assert.deepEqual(
      display.externalUrls.map((url) => [url.label, url.url, url.ref?.kind ?? null]),
      [
        ['bad', 'data:text/html,x', null],
        ['build', 'https://ci.example.test/7', 'external'],
      ],
    );
    assert.equal(display.userData, '{\n  "ticket": "<b>1</b>"\n}');
    assert.deepEqual(display.events, [
      {
        time: '1970-01-01T00:00:01.000Z',
        type: 'trail_started',
        title: 'Trail started',
        subject: null,
        details: 'user: ci',
      },
    ]);
  });

  it('reads a trail with no template and no optional fields', () => {
    const bare = trailDisplay({ name: 't', flow: { name: 'f' }, compliance_state: 'COMPLIANT', is_compliant: true });
    assert.deepEqual(
      [bare.slots, bare.artifacts, bare.commit, bare.origin, bare.userData, bare.events],
      [[], [], null, null, null, []],
    );
  });
});

describe('attestation display model', () => {
  const base = {
    attestation_id: 'a1',
    attestation_name: 'checks',
    flow_name: 'backend',
    trail_name: 'release-1',
    created_at: 2,
    reported_by: 'ci',
  };

  it('tables a scan quality gate and its conditions', () => {
    const display = attestationDisplay({
      ...base,
      attestation_type: 'scan',
      is_compliant: false,
      scan_results: {
        qualityGate: {
          status: 'ERROR',
          conditions: [
            { metric: 'coverage', status: 'ERROR', actualValue: '41', comparator: 'LT', errorThreshold: '80' },
          ],
        },
      },
    });
    assert.equal(display.status.state, 'NON-COMPLIANT');
    assert.equal(display.summary, 'Quality gate ERROR');
    assert.deepEqual(display.tables[0].rows, [['coverage', 'ERROR', '41', 'LT', '80']]);
  });

  it('totals junit suites', () => {
    const display = attestationDisplay({
      ...base,
      attestation_type: 'junit',
      junit_results: [
        { name: 'unit', tests: 10, failures: 1, errors: 0, skipped: 2, duration: 1.5 },
        { name: 'api', tests: 1, failures: 0, errors: 0, skipped: 0, duration: 0.1 },
      ],
    });
    assert.equal(display.summary, '11 tests, 1 failure, 0 errors, 2 skipped');
    assert.deepEqual(display.tables[0].rows[0], ['unit', '10', '1', '0', '2', '1.5']);
  });

  it('lists pull-request approvals in both forms', () => {
    const display = attestationDisplay({
      ...base,
      attestation_type: 'pull_request',
      pull_requests: [
        {
          url: 'https://git.example.test/pr/1',
          state: 'merged',
          author: 'dev',
          approvers: [{ username: 'lead', state: 'APPROVED' }],
        },
        { url: 'https://git.example.test/pr/2', state: 'open', approvers: ['old'] },
      ],
    });
    assert.equal(display.summary, '2 pull requests');
    assert.deepEqual(
      display.tables[0].rows.map((row) => row[3]),
      ['lead (APPROVED)', 'old'],
    );
  });

  it('shows custom data with its summary, annotations, evidence and artifact', () => {
    const display = attestationDisplay({
      ...base,
      attestation_type: 'custom:person',
      is_compliant: true,
      attestation_data: { summary: 'signed off', who: 'lead' },
      annotations: { note: '<script>' },
      artifact_fingerprint: FP,
      evidence_archive_path: `evidence/${'e'.repeat(64)}/report.zip`,
      origin_url: 'https://ci.example.test/1',
    });
    assert.equal(display.summary, 'signed off');
    assert.equal(display.data, '{\n  "summary": "signed off",\n  "who": "lead"\n}');
    assert.equal(display.annotations, '{\n  "note": "<script>"\n}');
    assert.deepEqual(display.evidence, {
      name: 'report.zip',
      ref: { kind: 'evidence', flow: 'backend', trail: 'release-1', attestationId: 'a1' },
    });
    assert.deepEqual(display.artifact, { kind: 'artifact', flow: 'backend', fingerprint: FP, trail: 'release-1' });
    assert.equal(display.origin?.ref?.kind, 'external');
  });
});

describe('external links', () => {
  it('admit only absolute http(s) URLs', () => {
    for (const url of ['https://a.test/x', 'HTTP://a.test']) assert.notEqual(externalRef(url), null, url);
    for (const url of ['javascript:alert(1)', ' https://a.test', 'data:x', '//a.test', '/relative', 'https:// x', 42])
      assert.equal(externalRef(url), null, String(url));
  });
});
