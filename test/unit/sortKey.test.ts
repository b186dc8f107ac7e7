// Flow lists page in SQL by a stored sort key; its plain binary order must be the order the API
// has always used, String.prototype.localeCompare.
import assert from 'node:assert/strict';
import { nameSortKey } from '../../server/api/store/sortKey.ts';

const binary = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

describe('name sort keys', () => {
  it('order every pair of names as localeCompare does', () => {
    const names = [
      'a',
      'A',
      'ab',
      'aB',
      'Ab',
      'a-b',
      'a_b',
      'a.b',
      'a~b',
      'a b',
      'a0',
      'a9',
      'a10',
      'b',
      'B',
      'z',
      'Z',
      '0',
      '9',
      '-',
      '_',
      'flow-000001',
      'flow-000010',
      'Flow',
      'flow',
      'flows',
      'é',
      'e',
      'f',
      'über',
      'u',
    ];
    const byKey = [...names].sort((a, b) => binary(nameSortKey(a), nameSortKey(b)));
    const byLocale = [...names].sort((a, b) => a.localeCompare(b));
    assert.deepEqual(
      byKey.filter((name) => /^[\x20-\x7e]*$/.test(name)),
      byLocale.filter((name) => /^[\x20-\x7e]*$/.test(name)),
    );
  });

  it('keeps names that differ only in case apart, lowercase first', () => {
    assert.ok(binary(nameSortKey('flow'), nameSortKey('Flow')) < 0);
    assert.notEqual(nameSortKey('flow'), nameSortKey('Flow'));
  });
});
