// The previews' pure parts: what changes between two evaluations of a trail (shared/compliance),
// and the lens titles, lists and hovers the language server makes of the server's answers.
import assert from 'node:assert/strict';
import { evaluateTrail, trailImpact, type TrailAttestation } from '../../shared/compliance/index.ts';
import { policyNameFromFile } from '../../shared/documentNames.ts';
import {
  errorsTitle,
  failuresByRule,
  impactItems,
  impactTitle,
  ruleFailureMarkdown,
  ruleKeyAt,
} from '../../server/language/service/previewText.ts';
import type { PolicyDryRun } from '../../shared/contract/types.ts';

const jira: TrailAttestation = { id: 'a1', name: 'jira', type: 'generic', is_compliant: true, created_at: 1 };

describe('previews: trail impact and lens text', () => {
  it('finds the slots that change between two templates, and none when the template is the same', () => {
    const template = { trail: { attestations: [{ name: 'jira', type: 'generic' }] } };
    const before = evaluateTrail(template, [jira], [], 1).compliance_status;
    assert.deepEqual(trailImpact(before, before), { before: 'COMPLIANT', after: 'COMPLIANT', changed_slots: [] });
    const withArtifact = evaluateTrail(
      {
        trail: {
          attestations: [{ name: 'jira', type: 'generic' }],
          artifacts: [{ name: 'app', attestations: [{ name: 'unit', type: 'junit' }] }],
        },
      },
      [jira],
      [],
      1,
    ).compliance_status;
    assert.deepEqual(trailImpact(before, withArtifact), {
      before: 'COMPLIANT',
      after: 'INCOMPLETE',
      changed_slots: [
        { artifact: 'app', attestation: null, before: null, after: 'MISSING' },
        { artifact: 'app', attestation: 'unit', before: null, after: 'MISSING' },
      ],
    });
    const empty = evaluateTrail({}, [jira], [], 1).compliance_status;
    assert.deepEqual(trailImpact(before, empty).changed_slots, [
      { artifact: null, attestation: 'jira', before: 'COMPLIANT', after: 'COMPLIANT (unexpected)' },
    ]);
  });

  it('titles the impact in the words of the issue, singular and plural', () => {
    const impact = {
      flow: 'backend',
      trails: 37,
      transitions: [
        { before: 'COMPLIANT', after: 'COMPLIANT', count: 30 },
        { before: 'COMPLIANT', after: 'INCOMPLETE', count: 5 },
        { before: 'INCOMPLETE', after: 'NON-COMPLIANT', count: 1 },
        { before: 'COMPLIANT', after: 'NON-COMPLIANT', count: 1 },
      ],
      changed_total: 7,
      changed: [],
    } as const;
    assert.equal(
      impactTitle(impact as never),
      'flow backend · 37 trails: 30 stay COMPLIANT, 5 become INCOMPLETE, 2 become NON-COMPLIANT',
    );
    assert.equal(
      impactTitle({ flow: 'x', trails: 0, transitions: [], changed_total: 0, changed: [] }),
      'flow x · no trails yet',
    );
    assert.deepEqual(impactItems({ flow: 'x', trails: 3, transitions: [], changed_total: 3, changed: [] }), [
      { label: '… and 3 more trails' },
    ]);
    assert.equal(errorsTitle(1), 'fix 1 error first');
    assert.equal(errorsTitle(3), 'fix 3 errors first');
  });

  it('keys rule failures by their place in the policy and shows reported text as text', () => {
    const run: PolicyDryRun = {
      environment: 'prod',
      snapshot_index: 4,
      compliant: 0,
      non_compliant: 1,
      artifacts: [
        {
          name: '[x](javascript:alert(1))',
          fingerprint: 'f',
          compliant: false,
          allowed: false,
          recorded_compliant: null,
          failing_rules: [{ path: ['artifacts', 'attestations', 1], type: 'attestation', reason: 'missing' }],
          failing_rules_total: 1,
        },
      ],
    };
    const failures = failuresByRule([run]);
    assert.equal(ruleKeyAt(['artifacts', 'attestations', 1, 'name'], failures), '["artifacts","attestations",1]');
    assert.equal(ruleKeyAt(['artifacts', 'attestations', 0, 'name'], failures), undefined);
    const markdown = ruleFailureMarkdown(failures.get('["artifacts","attestations",1]')!);
    assert.ok(markdown.includes('\\[x\\](javascript:alert(1))'), markdown);
    assert.equal(policyNameFromFile('/w/prod-rules.env-policy.yaml'), 'prod-rules');
    assert.equal(policyNameFromFile('/w/env-policy.yml'), undefined);
  });
});
