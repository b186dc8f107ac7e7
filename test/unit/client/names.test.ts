import assert from 'node:assert/strict';
import { environmentNameProblem, flowNameFromFile, flowNameProblem } from '../../../client/commands/names.ts';
import { verdictOf } from '../../../client/commands/verdict.ts';
import { languageSettings } from '../../../client/language/settings.ts';
import { defaultFileGlobs, settingsFrom } from '../../../shared/settings.ts';

describe('client input rules', () => {
  it('checks flow and environment names with the service patterns', () => {
    assert.equal(flowNameProblem('backend-1.2_x~y'), undefined);
    assert.ok(flowNameProblem('-backend'));
    assert.ok(flowNameProblem('has space'));
    assert.equal(environmentNameProblem('prod.eu-1'), undefined);
    assert.ok(environmentNameProblem('prod~1'), 'environments do not allow ~');
  });

  it('proposes a flow name from the template file name', () => {
    assert.equal(flowNameFromFile('/w/backend.flow-template.yml'), 'backend');
    assert.equal(flowNameFromFile('C:\\w\\flow-template-api.yaml'), 'api');
    assert.equal(flowNameFromFile('/w/flow-template.yml'), undefined);
    assert.equal(flowNameFromFile('/w/my service.yml'), 'my-service');
  });

  it('states the server verdict of an attestation found anywhere in the trail', () => {
    const trail = {
      name: 't1',
      compliance_state: 'INCOMPLETE',
      compliance_status: {
        attestations_statuses: [{ attestation_name: 'jira', status: 'MISSING', is_compliant: null }],
        artifacts_statuses: {
          backend: {
            status: 'NON-COMPLIANT',
            attestations_statuses: [{ attestation_name: 'quality', status: 'COMPLETE', is_compliant: false }],
          },
        },
      },
    };
    assert.equal(verdictOf(trail, 'quality'), "Not compliant. Trail 't1' is INCOMPLETE.");
    assert.equal(verdictOf({ ...trail, compliance_state: 'COMPLIANT' }, 'unknown'), "Trail 't1' is COMPLIANT.");
  });

  it('passes the language server settings in its documented shape, with defaults for bad values', () => {
    const values: Record<string, unknown> = {
      'files.flowTemplate': ['**/*.tmpl.yml'],
      'files.envPolicy': 'not a list',
      'diagnostics.debounceMs': 0,
      'diagnostics.maxProblems': -3,
    };
    assert.deepEqual(
      languageSettings((key) => values[key]),
      {
        complianceEvidence: {
          files: {
            flowTemplate: ['**/*.tmpl.yml'],
            envPolicy: ['**/*env-policy*.{yml,yaml}'],
            scanAttestation: ['**/*scan-attestation*.json'],
            k8sReport: ['**/*k8s-report*.json'],
          },
          diagnostics: { debounceMs: 0, maxProblems: 100 },
        },
      },
    );
    // One reader with the language server's: at least 1 problem shown, whole numbers.
    const limits: Record<string, unknown> = { 'diagnostics.maxProblems': 0, 'diagnostics.debounceMs': 2.5 };
    assert.deepEqual(
      languageSettings((key) => limits[key]).complianceEvidence.diagnostics,
      settingsFrom({ diagnostics: { maxProblems: 0, debounceMs: 2.5 } }, defaultFileGlobs).diagnostics,
    );
    assert.deepEqual(languageSettings((key) => limits[key]).complianceEvidence.diagnostics, {
      debounceMs: 2,
      maxProblems: 100,
    });
  });
});
