// View models of what runs: a snapshot (each artifact's compliance and the rule that failed), two
// snapshots compared, an environment's compliance over time and its chart, the environment list.
// Policy decisions come from the same evaluatePolicies the server snapshots with.
import assert from 'node:assert/strict';
import { evaluatePolicies, reasonsForIncompliance, type AppliedPolicy } from '../../shared/compliance/index.ts';
import { normalizePolicy } from '../../shared/policies/model.ts';
import { complianceChartSvg } from '../../shared/display/chart.ts';
import { environmentDisplay, environmentListDisplay } from '../../shared/display/environment.ts';
import { snapshotIdOf } from '../../shared/display/links.ts';
import { snapshotDisplay } from '../../shared/display/snapshot.ts';
import { snapshotComparisonDisplay } from '../../shared/display/snapshotComparison.ts';

const SCHEMA = 'https://compliance-evidence.dev/schemas/policy/environment/v1';
const FP = 'a'.repeat(64);
const FP2 = 'b'.repeat(64);

const policy: AppliedPolicy = {
  name: 'prod-rules',
  version: 3,
  policy: normalizePolicy({
    _schema: SCHEMA,
    artifacts: { provenance: { required: true }, attestations: [{ name: 'sbom', type: 'generic' }] },
  }),
};

function snapshotObject(index: number, isLatest: boolean): Record<string, unknown> {
  const attested = evaluatePolicies(
    {
      name: 'registry.test/app:1',
      fingerprint: FP,
      provenance: [
        {
          flow_name: 'backend',
          trail_name: 'release-1',
          compliance_state: 'COMPLIANT',
          attestations: [],
          artifacts: [{ id: 'x', fingerprint: FP, template_reference_name: 'app', created_at: 1 }],
        },
      ],
    },
    [policy],
  );
  const stray = evaluatePolicies({ name: 'registry.test/stray:9', fingerprint: FP2, provenance: [] }, [policy]);
  return {
    index,
    is_latest: isLatest,
    timestamp: 1_700_000_000 + index,
    type: 'K8S',
    compliant: false,
    artifact_compliance_count: { true: 0, false: 2, null: 0 },
    html_url: `http://h/acme/environments/prod/snapshots/${index}`,
    applied_policies: [{ id: 'p', name: 'prod-rules', version: 3, policy_dump: {}, failing_artifacts: [FP, FP2] }],
    artifacts: [
      {
        name: 'registry.test/app:1',
        fingerprint: FP,
        compliant: false,
        policy_decisions: attested,
        reasons_for_incompliance: reasonsForIncompliance(attested),
        pods: { 'app-7d': { namespace: 'shop', creationTimestamp: 1, owners: null } },
        annotation: { type: 'started', was: 0, now: 1 },
        flows: [
          {
            flow_name: 'backend',
            trail_name: 'release-1',
            git_commit: 'abc',
            commit_url: 'https://git.test/c/abc',
            build_url: 'javascript:alert(1)',
          },
        ],
      },
      {
        name: 'registry.test/stray:9',
        fingerprint: FP2,
        compliant: false,
        policy_decisions: stray,
        reasons_for_incompliance: reasonsForIncompliance(stray),
        annotation: { type: 'unchanged', was: 2, now: 2 },
        flows: [],
      },
      {
        name: 'registry.test/old:0',
        fingerprint: 'c'.repeat(64),
        compliant: null,
        annotation: { type: 'exited', was: 1, now: 0 },
        flows: [],
      },
    ],
  };
}

describe('snapshot display model', () => {
  const display = snapshotDisplay('prod', snapshotObject(3, false));

  it('shows what runs, each artifact with its compliance and the rule that failed', () => {
    assert.equal(display.title, 'prod#3');
    assert.equal(display.compliance.state, 'NON-COMPLIANT');
    assert.deepEqual(display.counts, { compliant: 0, nonCompliant: 2, unknown: 0 });
    assert.deepEqual(
      display.running.map((artifact) => [artifact.name, artifact.compliance.state, artifact.change]),
      [
        ['registry.test/app:1', 'NON-COMPLIANT', 'started'],
        ['registry.test/stray:9', 'NON-COMPLIANT', 'unchanged'],
      ],
    );
    const [app, stray] = display.running;
    assert.deepEqual(app.failedRules, [
      {
        policy: 'prod-rules',
        version: 3,
        rule: 'attestation sbom (generic)',
        reason: "attestation 'sbom' of type 'generic' is missing in trail 'release-1' of flow 'backend'",
      },
    ]);
    assert.deepEqual(
      stray.failedRules.map((rule) => rule.rule),
      ['provenance', 'attestation sbom (generic)'],
    );
    // The same words as the server's reasons, rule by rule.
    assert.deepEqual(
      stray.failedRules.map((rule) => `Policy '${rule.policy}' (version ${rule.version}): ${rule.reason}`),
      stray.reasons,
    );
    assert.deepEqual(app.pods, ['shop/app-7d']);
    assert.deepEqual(app.instances, { was: 0, now: 1 });
    assert.deepEqual(app.ref, { kind: 'artifact', flow: 'backend', fingerprint: FP });
    assert.equal(stray.ref, null, 'no provenance, no artifact page');
    assert.deepEqual(app.provenance[0].trailRef, { kind: 'trail', flow: 'backend', trail: 'release-1' });
    assert.equal(app.provenance[0].buildUrl?.ref, null, 'a javascript: URL is no link');
  });

  it('names a rule that could not be evaluated by its error', () => {
    const broken = snapshotDisplay('prod', {
      index: 1,
      artifacts: [
        {
          name: 'x',
          fingerprint: FP,
          compliant: false,
          policy_decisions: [
            {
              policy_name: 'p',
              policy_version: 1,
              status: 'NON-COMPLIANT',
              rule_evaluations: [
                {
                  rule: { type: 'attestation', definition: { name: 'a', type: 'generic' } },
                  satisfied: false,
                  ignored: false,
                  resolutions: [],
                  error: 'the condition ${{ x == }} is not a valid expression: unexpected end',
                },
              ],
            },
          ],
        },
      ],
    });
    assert.deepEqual(broken.running[0].failedRules, [
      {
        policy: 'p',
        version: 1,
        rule: 'attestation a (generic)',
        reason: 'the condition ${{ x == }} is not a valid expression: unexpected end',
      },
    ]);
  });

  it('keeps what exited apart, and links the neighbours and the comparison with the one before', () => {
    assert.deepEqual(
      display.exited.map((artifact) => [artifact.name, artifact.instances.now]),
      [['registry.test/old:0', 0]],
    );
    // The artifacts a policy fails, by the names they run under (linked where they have a page).
    assert.deepEqual(display.policies, [
      {
        name: 'prod-rules',
        version: 3,
        failingArtifacts: [
          { name: 'registry.test/app:1', fingerprint: FP, ref: { kind: 'artifact', flow: 'backend', fingerprint: FP } },
          { name: 'registry.test/stray:9', fingerprint: FP2, ref: null },
        ],
      },
    ]);
    const unknown = snapshotDisplay('prod', {
      index: 1,
      applied_policies: [{ name: 'p', version: 1, failing_artifacts: ['c'.repeat(64)] }],
    });
    assert.deepEqual(unknown.policies[0].failingArtifacts, [
      { name: 'c'.repeat(64), fingerprint: 'c'.repeat(64), ref: null },
    ]);
    assert.deepEqual(display.previous, { kind: 'snapshot', environment: 'prod', index: 2 });
    assert.deepEqual(display.next, { kind: 'snapshot', environment: 'prod', index: 4 });
    assert.deepEqual(display.comparedWithPrevious, {
      kind: 'comparison',
      from: { environment: 'prod', index: 2 },
      to: { environment: 'prod', index: 3 },
    });
    const first = snapshotDisplay('prod', snapshotObject(1, true));
    assert.deepEqual([first.previous, first.next, first.comparedWithPrevious], [null, null, null]);
  });
});

describe('snapshot comparison display model', () => {
  it('reads started, exited and changed from the diff', () => {
    const display = snapshotComparisonDisplay({
      snappish1: {
        snapshot_id: 'prod#2',
        artifacts: [
          { fingerprint: FP2, name: 'gone', most_recent_timestamp: 5, flow: '', commit_url: '', instance_count: 2 },
        ],
      },
      snappish2: {
        snapshot_id: 'prod#3',
        artifacts: [
          {
            fingerprint: FP,
            name: 'new',
            most_recent_timestamp: 6,
            flow: 'backend',
            commit_url: 'https://git.test/c',
            instance_count: 1,
          },
        ],
      },
      changed: {
        artifacts: [
          {
            fingerprint: 'c'.repeat(64),
            name: 'scaled',
            flow: 'backend',
            instance_count: 3,
            s1_instance_count: 1,
            s2_instance_count: 3,
          },
        ],
      },
      'not-changed': { artifacts: [{ fingerprint: 'd'.repeat(64), name: 'same', flow: 'backend', instance_count: 1 }] },
    });
    assert.deepEqual([display.from, display.to], ['prod#2', 'prod#3']);
    assert.deepEqual(display.fromRef, { kind: 'snapshot', environment: 'prod', index: 2 });
    assert.deepEqual(
      display.started.map((a) => [a.name, a.was, a.now, a.ref?.kind ?? null]),
      [['new', 0, 1, 'artifact']],
    );
    assert.deepEqual(
      display.exited.map((a) => [a.name, a.was, a.now, a.ref]),
      [['gone', 2, 0, null]],
    );
    assert.deepEqual(
      display.changed.map((a) => [a.name, a.was, a.now]),
      [['scaled', 1, 3]],
    );
    assert.deepEqual(
      display.unchanged.map((a) => a.name),
      ['same'],
    );
    assert.equal(display.started[0].startedAt, '1970-01-01T00:00:06.000Z');
  });

  it('reads snapshot ids whose environment name holds a hash sign from the last one', () => {
    assert.deepEqual(snapshotIdOf('a#b#12'), { environment: 'a#b', index: 12 });
    for (const bad of ['prod', 'prod#', '#3', 'prod#0', 'prod#x', 7])
      assert.equal(snapshotIdOf(bad), null, String(bad));
  });
});

describe('environment display model and chart', () => {
  const environment = {
    name: 'prod',
    type: 'K8S',
    description: 'production',
    state: false,
    last_reported_at: 1_700_000_003,
    policies: ['prod-rules', 'detached-later'],
    included_environments: [],
    snapshot_count: 3,
  };
  const snapshots = [1, 3, 2].map((index) => ({
    ...snapshotObject(index, index === 3),
    artifact_compliance_count: { true: index, false: 3 - index, null: 1 },
  }));
  const display = environmentDisplay(environment, snapshots, [
    {
      name: 'prod-rules',
      description: 'what runs in prod',
      versions: [3, 4].map((version) => ({ version, policy_yaml: `# v${version}`, timestamp: version })),
    },
  ]);

  it('lists snapshots newest first with their counts, and the policies with the version applied', () => {
    assert.deepEqual(
      display.snapshots.map((row) => [row.index, row.counts.compliant, row.counts.nonCompliant, row.counts.unknown]),
      [
        [3, 3, 0, 1],
        [2, 2, 1, 1],
        [1, 1, 2, 1],
      ],
    );
    assert.deepEqual(display.policies, [
      { name: 'prod-rules', version: 3, description: 'what runs in prod', yaml: '# v3' },
      { name: 'detached-later', version: null, description: '', yaml: null },
    ]);
    assert.equal(display.compliance.state, 'NON-COMPLIANT');
    assert.deepEqual(display.latest, { kind: 'snapshot', environment: 'prod', index: 3 });
    assert.deepEqual(display.snapshots[0].comparedWithPrevious, {
      kind: 'comparison',
      from: { environment: 'prod', index: 2 },
      to: { environment: 'prod', index: 3 },
    });
  });

  it('draws one stacked bar per snapshot, in index order, with its counts', () => {
    const bars = [
      ...display.chart.matchAll(
        /data-snapshot="(\d+)" data-compliant="(\d+)" data-non-compliant="(\d+)" data-unknown="(\d+)"/g,
      ),
    ].map((match) => match.slice(1).map(Number));
    assert.deepEqual(bars, [
      [1, 1, 2, 1],
      [2, 2, 1, 1],
      [3, 3, 0, 1],
    ]);
    assert.match(
      display.chart,
      /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]* role="img" aria-label="prod: artifacts by compliance per snapshot\. 3 snapshots/,
    );
    assert.match(display.chart, /<title>#2: 2 compliant, 1 non-compliant, 1 unknown<\/title>/);
    // Bar heights are proportional: 4 artifacts fill the plot, each segment a share of it.
    const heights = [
      ...display.chart.matchAll(
        /<rect class="(compliant|non-compliant|unknown)" x="[\d.]+" y="[\d.]+" width="24" height="([\d.]+)"/g,
      ),
    ].map((match) => [match[1], Number(match[2])]);
    assert.deepEqual(heights.slice(0, 3), [
      ['compliant', 44],
      ['non-compliant', 88],
      ['unknown', 44],
    ]);
    assert.doesNotMatch(display.chart, /<script|on\w+=|style=/i);
  });

  it('escapes the title and shows an empty chart without snapshots', () => {
    const svg = complianceChartSvg('<script>alert(1)</script>"&', []);
    assert.doesNotMatch(svg, /<script/);
    assert.match(svg, /&#60;script&#62;alert\(1\)&#60;\/script&#62;&#34;&#38;/);
    assert.match(svg, /No snapshots yet/);
    assert.equal(environmentDisplay({ name: 'empty', snapshot_count: 0, state: null }, []).latest, null);
  });

  it('reads the environment list in both its forms', () => {
    const paged = environmentListDisplay({
      environments: [environment, { placeholder: true, id: 'broken', message: 'could not be read' }],
      page: 2,
      per_page: 2,
      total_pages: 3,
      total_count: 5,
      _links: {},
    });
    assert.deepEqual(
      paged.environments.map((row) => [row.name, row.compliance.state, row.problem]),
      [
        ['prod', 'NON-COMPLIANT', null],
        ['broken', 'UNKNOWN', 'could not be read'],
      ],
    );
    assert.deepEqual(paged.paging, { page: 2, perPage: 2, total: 5, pageCount: 3, previous: 1, next: 3 });
    assert.deepEqual(environmentListDisplay([environment]).paging, {
      page: 1,
      perPage: 1,
      total: 1,
      pageCount: 1,
      previous: null,
      next: null,
    });
  });
});
