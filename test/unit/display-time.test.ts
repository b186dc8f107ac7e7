// Times as the pages show them: how long ago in words, and the exact time in UTC for the hover.
import assert from 'node:assert/strict';
import { exactTime, relativeTime } from '../../shared/display/time.ts';

const NOW = Date.parse('2026-11-26T12:00:00Z');
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();

describe('times in words', () => {
  it('says how long ago in the largest whole unit, and what lies ahead as "in"', () => {
    assert.deepEqual(
      [
        ago(3),
        ago(-5),
        ago(42),
        ago(59 * 60),
        ago(61 * 60),
        ago(23 * 60 * 60),
        ago(26 * 60 * 60),
        ago(29 * 24 * 60 * 60),
        ago(45 * 24 * 60 * 60),
        ago(400 * 24 * 60 * 60),
        ago(-2 * 60 * 60),
      ].map((iso) => relativeTime(iso, NOW)),
      [
        'just now',
        'just now',
        '42 seconds ago',
        '59 minutes ago',
        '1 hour ago',
        '23 hours ago',
        '1 day ago',
        '29 days ago',
        '1 month ago',
        '1 year ago',
        'in 2 hours',
      ],
    );
  });

  it('gives the exact time to the second in UTC, and leaves what is no time as it is', () => {
    assert.equal(exactTime('2026-11-26T04:05:32.781Z'), '2026-11-26 04:05:32 UTC');
    assert.equal(exactTime('soon'), 'soon');
    assert.equal(relativeTime('soon', NOW), 'soon');
  });
});
