import assert from 'node:assert/strict';
import { fieldPath } from '../../shared/findings.ts';

describe('fieldPath', () => {
  it('renders keys dotted and indexes bracketed, as the API does', () => {
    assert.equal(fieldPath(['trail', 'attestations', 0, 'name']), 'trail.attestations[0].name');
    assert.equal(fieldPath([0, 'podName']), '[0].podName');
    assert.equal(fieldPath([]), '');
  });
});
