// Why an attestation is non-compliant, in words: the failing condition of each type's rule, read
// from the same data the rule (shared/compliance/attestations.ts) decides on.
import assert from 'node:assert/strict';
import { isAttestationCompliant, nonComplianceReasons } from '../../shared/compliance/index.ts';
import { rulesHold } from '../../shared/customTypes/index.ts';

const gate = (status: string, conditions: unknown[]) => ({ scan_results: { qualityGate: { status, conditions } } });

describe('why an attestation is non-compliant', () => {
  it('names the quality gate conditions that fail, as comparisons with their thresholds', () => {
    assert.deepEqual(
      nonComplianceReasons(
        'scan',
        gate('ERROR', [
          { metric: 'coverage', status: 'ERROR', value: '62', operator: 'LESS_THAN', errorThreshold: '80' },
          { metric: 'bugs', status: 'ERROR', actualValue: '3', comparator: 'GT', errorThreshold: '0' },
          {
            metric: 'duplicated_lines_density',
            status: 'OK',
            value: '1',
            operator: 'GREATER_THAN',
            errorThreshold: '3',
          },
          { metric: 'new_violations', status: 'ERROR', operator: 'GREATER_THAN', errorThreshold: '0' },
        ]),
      ),
      ['coverage 62 < 80', 'bugs 3 > 0', 'new_violations error (threshold 0)'],
    );
    assert.deepEqual(nonComplianceReasons('scan', gate('ERROR', [])), ['quality gate ERROR']);
    assert.deepEqual(nonComplianceReasons('scan', {}), ['no quality gate was reported']);
  });

  it('names the test suites with failures or errors', () => {
    assert.deepEqual(
      nonComplianceReasons('junit', {
        junit_results: [
          { name: 'api unit tests', failures: 1, errors: 0 },
          { name: 'fine', failures: 0, errors: 0 },
          { failures: 2, errors: 1 },
        ],
      }),
      ['api unit tests: 1 failure', 'suite 3: 2 failures, 1 error'],
    );
    assert.deepEqual(nonComplianceReasons('junit', { junit_results: null }), ['no test results were reported']);
  });

  it('names the custom rule that does not hold, a comparison with the value reported where it is one', () => {
    const rules = [
      '.line_coverage >= 80',
      '.tool == "lcov"',
      '.report.passed == true',
      '(.items | length) > 2',
      '.gone > 3',
    ];
    const data = { attestation_data: { line_coverage: 62, tool: 'gcov', report: { passed: false }, items: [] } };
    assert.deepEqual(nonComplianceReasons('custom:coverage', data, { rules }), [
      'line_coverage 62 < 80',
      'tool "gcov" ≠ "lcov"',
      'report.passed false ≠ true',
      'rule (.items | length) > 2 does not hold',
      'gone is missing (rule .gone > 3)',
    ]);
    assert.deepEqual(
      nonComplianceReasons(
        'custom:coverage',
        { attestation_data: { line_coverage: 91 } },
        { rules: rules.slice(0, 1) },
      ),
      [],
    );
  });

  it('names the findings, the issues that do not exist, the missing pull request, the decision and the report', () => {
    assert.deepEqual(
      nonComplianceReasons('snyk', {
        snyk_results: { results: [{ name: 'api', high_count: 2, medium_count: 1 }, { low: [{}] }, { high_count: 0 }] },
      }),
      ['api: 2 high, 1 medium findings', 'result 2: 1 low finding'],
    );
    assert.deepEqual(
      nonComplianceReasons('jira', {
        jira_results: [
          { issue_id: 'SHOP-1', issue_exists: true },
          { issue_id: 'SHOP-9', issue_exists: false },
        ],
      }),
      ['issue SHOP-9 does not exist'],
    );
    assert.deepEqual(nonComplianceReasons('jira', { jira_results: [] }), ['no issue is referenced']);
    assert.deepEqual(nonComplianceReasons('pull_request', { pull_requests: [] }), ['no pull request was reported']);
    assert.deepEqual(nonComplianceReasons('system:decision', { description: 'Rejected by the board' }), [
      'the decision is non-compliant: Rejected by the board',
    ]);
    assert.deepEqual(nonComplianceReasons('generic', { is_compliant: false }), ['it was reported non-compliant']);
  });

  it('gives a reason whenever the rule says non-compliant', () => {
    const cases: Array<[string, unknown, string[]?]> = [
      [
        'scan',
        gate('ERROR', [
          { metric: 'coverage', status: 'ERROR', value: '1', operator: 'LESS_THAN', errorThreshold: '80' },
        ]),
      ],
      ['scan', { scan_results: {} }],
      ['junit', { junit_results: [{ failures: 'many' }] }],
      ['snyk', { snyk_results: { results: [{ high_count: 1 }] } }],
      ['snyk', { snyk_results: null }],
      ['jira', { jira_results: [{ issue_id: 'A-1', issue_exists: false }] }],
      ['generic', { is_compliant: false }],
      ['custom:person', { attestation_data: { age: 12 } }, ['.age > 21']],
    ];
    for (const [type, data, rules] of cases) {
      const compliant = isAttestationCompliant(type, data, {
        customRulesPassed:
          rules === undefined ? undefined : rulesHold(rules, (data as { attestation_data: unknown }).attestation_data),
      });
      const reasons = nonComplianceReasons(type, data, { rules });
      if (!compliant) assert.ok(reasons.length > 0, `${type} ${JSON.stringify(data)} has a reason`);
    }
  });
});
