import assert from 'node:assert/strict';
import {
  resolveBound,
  resolveInterval,
  resolveSnapshotExpression,
  splitSnappish,
  type SnapshotTimeline,
} from '../../server/api/rules/snapshotExpressions.ts';

// Three snapshots taken at 1000, 2000 and 3000; "now" is 3600.
const froms = [1000, 2000, 3000];
const three: SnapshotTimeline = {
  count: 3,
  now: 3600,
  indexAt: (t) => froms.filter((from) => from <= t).length,
};
const empty: SnapshotTimeline = { count: 0, now: 3600, indexAt: () => 0 };

const indexOf = (expr: string, timeline = three): number => {
  const result = resolveSnapshotExpression('acme', 'env', expr, timeline);
  assert.ok('index' in result, `expected ${expr} to resolve, got ${JSON.stringify(result)}`);
  return result.index;
};

describe('resolveSnapshotExpression', () => {
  it('reads every form of reference §2.7', () => {
    assert.equal(indexOf('1'), 1);
    assert.equal(indexOf('3'), 3);
    assert.equal(indexOf('-1'), 3);
    assert.equal(indexOf('-3'), 1);
    assert.equal(indexOf('#2'), 2);
    assert.equal(indexOf('~1'), 2);
    assert.equal(indexOf('~0'), 3);
    assert.equal(indexOf('@{now}'), 3);
    assert.equal(indexOf(''), 3);
  });

  it('reads UTC times and relative times as the snapshot current then', () => {
    assert.equal(indexOf('@{1970-01-01T00:33:20}'), 2, '2000 s after the epoch is exactly the second snapshot');
    assert.equal(indexOf('@{1970-01-01T00:33:19}'), 1);
    assert.equal(indexOf('@{1970-01-01T02:00:00}'), 3, 'a time after the latest is the latest');
    assert.equal(indexOf('@{10.minutes.ago}'), 3);
    assert.equal(indexOf('@{30.minutes.ago}'), 1);
    assert.equal(indexOf('@{1.minute.ago}'), 3);
    assert.equal(indexOf('@{2000.seconds.ago}'), 1);
  });

  it('gives the exact out-of-range messages of the reference', () => {
    assert.deepEqual(resolveSnapshotExpression('acme', 'get-snapshot-empty-env', '-1', empty), {
      status: 400,
      error:
        "Org: 'acme'. Snapshot 'get-snapshot-empty-env#-1' resolves to 'get-snapshot-empty-env#0'. len(snapshots) == 0. Indexes are 1-based",
    });
    assert.deepEqual(resolveSnapshotExpression('acme', 'get-snapshot-env', '#23', three), {
      status: 400,
      error:
        "Org: 'acme'. Snapshot 'get-snapshot-env#23' resolves to 'get-snapshot-env#23'. len(snapshots) == 3. Indexes are 1-based",
    });
    assert.deepEqual(resolveSnapshotExpression('acme', 'env1-to-diff', '', empty), {
      status: 400,
      error:
        "Org: 'acme'. Snapshot 'env1-to-diff' resolves to 'env1-to-diff#0'. len(snapshots) == 0. Indexes are 1-based",
    });
    const before = resolveSnapshotExpression('acme', 'env', '@{1970-01-01T00:00:01}', three);
    assert.ok('error' in before && before.error.includes("Snapshot 'env@{1970-01-01T00:00:01}' resolves to 'env#0'"));
    const back = resolveSnapshotExpression('acme', 'env', '~5', three);
    assert.ok('error' in back && back.error.includes("resolves to 'env#-2'"));
    const zero = resolveSnapshotExpression('acme', 'env', '0', three);
    assert.ok('error' in zero && zero.error.includes("'env#0' resolves to 'env#0'"));
  });

  it('rejects what it cannot read with 400', () => {
    for (const expr of ['abc', '@{yesterday-ish}', '~x', '#', '@{}']) {
      const result = resolveSnapshotExpression('acme', 'env', expr, three);
      assert.deepEqual(result, { status: 400, error: `Bad snappish env${expr}` });
    }
  });
});

describe('splitSnappish', () => {
  it('splits the environment name from the expression', () => {
    assert.deepEqual(splitSnappish('prod'), { env: 'prod', expr: '' });
    assert.deepEqual(splitSnappish('prod-1.eu#3'), { env: 'prod-1.eu', expr: '#3' });
    assert.deepEqual(splitSnappish('prod~2'), { env: 'prod', expr: '~2' });
    assert.deepEqual(splitSnappish('prod@{now}'), { env: 'prod', expr: '@{now}' });
    assert.equal(splitSnappish(''), undefined);
  });
});

describe('resolveInterval', () => {
  const range = (text: string, timeline = three): unknown => {
    const result = resolveInterval(text, timeline);
    return 'range' in result ? [result.range.first, result.range.last] : result.error;
  };

  it('reads empty, NOW, a..b, ~N..NOW and durations', () => {
    assert.deepEqual(range(''), [1, 3]);
    assert.deepEqual(range('NOW'), [3, 3]);
    assert.deepEqual(range('1..2'), [1, 2]);
    assert.deepEqual(range('~5..NOW'), [1, 3], 'clamped to the snapshots that exist');
    assert.deepEqual(range('~1..NOW'), [2, 3]);
    assert.deepEqual(range('2'), [2, 2]);
    assert.deepEqual(range('1hour..NOW'), [1, 3]);
    assert.deepEqual(range('20min..NOW'), [2, 3], 'snapshot 2 was current 20 minutes ago');
    assert.deepEqual(range('1..99'), [1, 3]);
    assert.deepEqual(range('', empty), [1, 0], 'no snapshots → an empty range');
  });

  it('says which value is invalid', () => {
    assert.equal(range('1..x'), 'Invalid interval value: x');
    assert.equal(range('1..2..3'), 'Invalid interval value: 1..2..3');
    assert.equal(range('soon'), 'Invalid interval value: soon');
  });
});

describe('resolveBound', () => {
  it('resolves start and end bounds, and names an empty or invalid one', () => {
    assert.deepEqual(resolveBound('1', three), { index: 1 });
    assert.deepEqual(resolveBound('NOW', three), { index: 3 });
    assert.deepEqual(resolveBound('1hour', three), { index: 0 }, 'an hour ago is before the first snapshot');
    assert.deepEqual(resolveBound('40min', three), { index: 1 });
    assert.deepEqual(resolveBound('', three), { status: 400, error: 'Invalid interval value: ' });
    assert.deepEqual(resolveBound('-', three), { status: 400, error: 'Invalid interval value: -' });
  });
});
