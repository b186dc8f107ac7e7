// The settings shape the client sends, read defensively: anything missing or malformed falls back.
import assert from 'node:assert/strict';
import { defaultFileGlobs, settingsFrom } from '../../../shared/settings.ts';

describe('language server settings', () => {
  it('defaults to the shared globs, a 100 ms debounce and 100 problems', () => {
    const settings = settingsFrom(undefined, defaultFileGlobs);
    assert.deepEqual(settings.files.flowTemplate, ['**/*flow-template*.{yml,yaml}']);
    assert.deepEqual(settings.files.k8sReport, ['**/*k8s-report*.json']);
    assert.deepEqual(settings.diagnostics, { debounceMs: 100, maxProblems: 100 });
  });

  it('reads the section itself or an object holding it', () => {
    const section = { files: { envPolicy: ['**/policies/*.yaml'] }, diagnostics: { debounceMs: 0, maxProblems: 5 } };
    for (const raw of [section, { complianceEvidence: section }]) {
      const settings = settingsFrom(raw, defaultFileGlobs);
      assert.deepEqual(settings.files.envPolicy, ['**/policies/*.yaml']);
      assert.deepEqual(settings.files.flowTemplate, defaultFileGlobs.flowTemplate);
      assert.deepEqual(settings.diagnostics, { debounceMs: 0, maxProblems: 5 });
    }
  });

  it('ignores malformed values field by field', () => {
    const settings = settingsFrom(
      { files: { flowTemplate: 'x.yaml', envPolicy: [1] }, diagnostics: { debounceMs: -1, maxProblems: 0 } },
      defaultFileGlobs,
    );
    assert.deepEqual(settings.files.flowTemplate, defaultFileGlobs.flowTemplate);
    assert.deepEqual(settings.files.envPolicy, defaultFileGlobs.envPolicy);
    assert.deepEqual(settings.diagnostics, { debounceMs: 100, maxProblems: 100 });
  });
});
