import assert from 'node:assert/strict';
import { describeCompliance, isAttestationCompliant } from '../../shared/compliance/index.ts';

describe('per-type attestation compliance', () => {
  it('generic: is_compliant, defaulting to true', () => {
    assert.equal(isAttestationCompliant('generic', { is_compliant: true }), true);
    assert.equal(isAttestationCompliant('generic', { is_compliant: false }), false);
    assert.equal(isAttestationCompliant('generic', { attestation_name: 'x' }), true);
    assert.equal(isAttestationCompliant('generic', { is_compliant: 'false' }), false);
  });

  it('junit: no failures and no errors across suites', () => {
    const suite = { name: 's', failures: 0, errors: 0, skipped: 2, total: 10, duration: 1.5 };
    assert.equal(isAttestationCompliant('junit', { junit_results: [suite, suite] }), true);
    assert.equal(isAttestationCompliant('junit', { junit_results: [] }), true);
    assert.equal(isAttestationCompliant('junit', { junit_results: [suite, { ...suite, failures: 1 }] }), false);
    assert.equal(isAttestationCompliant('junit', { junit_results: [{ ...suite, errors: 2 }] }), false);
    assert.equal(isAttestationCompliant('junit', {}), false);
  });

  it('snyk: every count zero', () => {
    const clean = { high_count: 0, medium_count: 0, low_count: 0, high: [], medium: [], low: [] };
    const data = (results: unknown[]) => ({
      snyk_results: { schema_version: '1', tool: { name: 't', version: '1' }, results },
    });
    assert.equal(isAttestationCompliant('snyk', data([clean])), true);
    assert.equal(isAttestationCompliant('snyk', data([])), true);
    assert.equal(isAttestationCompliant('snyk', data([clean, { ...clean, low_count: 1 }])), false);
    assert.equal(isAttestationCompliant('snyk', data([{ ...clean, medium: [{ id: 'v' }] }])), false);
    assert.equal(isAttestationCompliant('snyk', {}), false);
  });

  it('scan: quality gate OK', () => {
    const results = (qualityGate?: unknown) => ({
      scan_results: { analysedAt: 'x', revision: 'r', project: { key: 'k', url: 'u' }, qualityGate },
    });
    assert.equal(isAttestationCompliant('scan', results({ status: 'OK', conditions: [] })), true);
    assert.equal(isAttestationCompliant('scan', results({ status: 'ERROR', conditions: [] })), false);
    assert.equal(isAttestationCompliant('scan', results()), false);
  });

  it('jira: at least one issue and all exist', () => {
    const issue = { issue_id: 'A-1', issue_url: 'https://issues.example/A-1', issue_exists: true };
    assert.equal(isAttestationCompliant('jira', { jira_results: [issue] }), true);
    assert.equal(isAttestationCompliant('jira', { jira_results: [] }), false);
    assert.equal(isAttestationCompliant('jira', { jira_results: [issue, { ...issue, issue_exists: false }] }), false);
  });

  it('pull_request: at least one', () => {
    assert.equal(
      isAttestationCompliant('pull_request', {
        git_provider: 'github',
        pull_requests: [{ url: 'u', state: 'merged' }],
      }),
      true,
    );
    assert.equal(isAttestationCompliant('pull_request', { git_provider: 'gitlab', pull_requests: [] }), false);
  });

  it('custom: the precomputed rules result, compliant without rules', () => {
    assert.equal(isAttestationCompliant('custom', { type_name: 'person', attestation_data: { age: 30 } }), true);
    assert.equal(isAttestationCompliant('custom:person', {}, { customRulesPassed: false }), false);
    assert.equal(isAttestationCompliant('custom:person', {}, { customRulesPassed: true }), true);
  });

  it('decision: attestation_data.is_compliant, under every spelling of the type', () => {
    for (const type of ['system', 'system:decision', 'decision']) {
      assert.equal(
        isAttestationCompliant(type, { type_name: 'decision', control: 'C', attestation_data: { is_compliant: true } }),
        true,
        type,
      );
      assert.equal(isAttestationCompliant(type, { attestation_data: { is_compliant: false } }), false, type);
      assert.equal(isAttestationCompliant(type, {}), false, type);
    }
  });

  it('override: new_compliance_status', () => {
    assert.equal(isAttestationCompliant('override', { reason: 'r', new_compliance_status: true }), true);
    assert.equal(isAttestationCompliant('override', { reason: 'r', new_compliance_status: false }), false);
  });

  it('never throws on unreadable data and rejects unknown types', () => {
    for (const type of [
      'generic',
      'junit',
      'snyk',
      'scan',
      'jira',
      'pull_request',
      'custom',
      'system',
      'override',
      'nonsense',
    ]) {
      for (const data of [
        null,
        undefined,
        1,
        'x',
        [],
        { junit_results: [null], snyk_results: { results: [1] }, jira_results: [null] },
      ]) {
        assert.equal(typeof isAttestationCompliant(type, data), 'boolean');
      }
    }
    assert.equal(isAttestationCompliant('nonsense', { is_compliant: true }), false);
  });

  it('describes every template type for hover', () => {
    for (const type of [
      'generic',
      'junit',
      'snyk',
      'scan',
      'jira',
      'pull_request',
      'decision',
      'custom:coverage',
      '*',
      'system:decision',
      'override',
    ]) {
      assert.match(describeCompliance(type) ?? '', /\w{4,}/, type);
    }
    assert.equal(describeCompliance('not-supported'), undefined);
  });
});
