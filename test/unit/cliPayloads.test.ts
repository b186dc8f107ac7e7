// Class 1 of issue 15: every report type and attestation payload the official CLI builds is
// accepted with the nulls and omissions it sends, and malformed ones are still refused.
import assert from 'node:assert/strict';
import { checkAttestation, isAttestationKind } from '../../shared/payloads/index.ts';
import { checkReport, isReportType, reportTypes } from '../../shared/reports/check.ts';
import { loadCliPayloads } from './cliPayloads.ts';

const payloads = loadCliPayloads();

describe('payloads as the official CLI builds them', () => {
  it('cover every report type, accepted and refused', () => {
    for (const type of reportTypes) {
      const ofType = payloads.filter((payload) => 'report' in payload.target && payload.target.report === type);
      assert.ok(
        ofType.some((payload) => payload.accepted),
        `${type}: an accepted payload`,
      );
      assert.ok(
        ofType.some((payload) => !payload.accepted),
        `${type}: a refused payload`,
      );
    }
  });

  for (const payload of payloads) {
    it(payload.name, () => {
      const target = payload.target;
      let issues;
      if ('report' in target) {
        assert.ok(isReportType(target.report), target.report);
        issues = checkReport(target.report, payload.value);
      } else {
        assert.ok(isAttestationKind(target.attestation), target.attestation);
        issues = checkAttestation(target.attestation, payload.value);
      }
      const errors = issues
        .filter((issue) => issue.severity === 'error')
        .map((issue) => `${issue.code} ${issue.path.join('.')}`);
      if (payload.accepted) assert.deepEqual(errors, [], `${payload.name} is accepted`);
      else assert.ok(errors.length > 0, `${payload.name} is refused`);
    });
  }
});
