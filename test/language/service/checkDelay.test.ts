// The pause before a check, from what the last checks of that document cost.
import assert from 'node:assert/strict';
import { createCheckDelays } from '../../../server/language/checkDelay.ts';

describe('language server check delays', () => {
  it('checks at once before the first measure and while checks are cheap', () => {
    const delays = createCheckDelays();
    assert.equal(delays.delayFor('a', 100), 0);
    for (const ms of [2, 3, 1.5]) delays.record('a', ms);
    assert.equal(delays.delayFor('a', 100), 0);
  });

  it('waits as long as an expensive document takes to check, at most the setting', () => {
    const delays = createCheckDelays();
    for (const ms of [40, 42, 38]) delays.record('a', ms);
    assert.equal(delays.delayFor('a', 100), 40);
    assert.equal(delays.delayFor('a', 25), 25);
    assert.equal(delays.delayFor('a', 0), 0);
    assert.equal(delays.delayFor('b', 100), 0, 'each document is measured on its own');
  });

  it('follows the median of the last five checks, so one slow check does not slow typing', () => {
    const delays = createCheckDelays();
    for (const ms of [2, 2, 2, 2, 300]) delays.record('a', ms);
    assert.equal(delays.delayFor('a', 100), 0);
    for (const ms of [60, 60, 60]) delays.record('a', ms);
    assert.equal(delays.delayFor('a', 100), 60, 'a document that grew is measured anew');
    delays.forget('a');
    assert.equal(delays.delayFor('a', 100), 0);
  });
});
