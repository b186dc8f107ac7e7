// On PostgreSQL the first pages of a list carry their LIMIT and OFFSET as numbers in the statement,
// so that the database plans each such statement once; other statements keep their parameters.
import assert from 'node:assert/strict';
import { withPageWrittenIn } from '../../server/api/store/postgres/dialect.ts';

const LIST = 'SELECT id FROM flows WHERE org_id = ? AND name = ? ORDER BY name_key LIMIT ? OFFSET ?';

describe('PostgreSQL statements with their page written in', () => {
  it('writes in the LIMIT and OFFSET of a first page and keeps the other parameters', () => {
    assert.deepEqual(withPageWrittenIn(LIST, [1, "it's", 20, 40]), {
      sql: 'SELECT id FROM flows WHERE org_id = ? AND name = ? ORDER BY name_key LIMIT 20 OFFSET 40',
      params: [1, "it's"],
    });
    assert.deepEqual(withPageWrittenIn('SELECT id FROM trails WHERE flow_id = ? ORDER BY seq LIMIT ?', ['f', 5]), {
      sql: 'SELECT id FROM trails WHERE flow_id = ? ORDER BY seq LIMIT 5 OFFSET 0',
      params: ['f'],
    });
  });

  it('writes a list without a limit (-1) as LIMIT ALL', () => {
    assert.equal(withPageWrittenIn(LIST, [1, 'a', -1, 0])?.sql.endsWith('LIMIT ALL OFFSET 0'), true);
  });

  it('leaves deep pages, large pages, odd values and statements without a closing LIMIT as they are', () => {
    assert.equal(withPageWrittenIn(LIST, [1, 'a', 20, 520]), undefined);
    assert.equal(withPageWrittenIn(LIST, [1, 'a', 500, 0]), undefined);
    assert.equal(withPageWrittenIn(LIST, [1, 'a', 2.5, 0]), undefined);
    assert.equal(withPageWrittenIn(LIST, [1, 'a', '20', 0]), undefined);
    assert.equal(withPageWrittenIn(LIST, [1, 'a', -2, 0]), undefined);
    assert.equal(
      withPageWrittenIn('SELECT * FROM trails WHERE id IN (SELECT id FROM t LIMIT ?) AND x = ?', [3, 1]),
      undefined,
    );
    assert.equal(withPageWrittenIn('SELECT 1 FROM orgs WHERE name = ?', ['acme']), undefined);
  });
});
