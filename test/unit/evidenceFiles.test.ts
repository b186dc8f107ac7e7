import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileEvidenceStore, type EvidenceStore } from '../../server/api/store/evidence.ts';

// Two instances of a team's server share one evidence directory and one database. Each store
// below is one instance's; `committedRows` stands for the database they share (the shas of the
// attestations committed so far), read by each through the check the store is given.
describe('evidence files shared by two instances', () => {
  let dir: string;
  let committedRows: Set<string>;
  let first: EvidenceStore;
  let second: EvidenceStore;
  const bytes = Buffer.from('the same report, uploaded twice at once');
  const sha = createHash('sha256').update(bytes).digest('hex');
  const pathOf = (): string => join(dir, sha.slice(0, 2), sha);
  const contentOf = async (store: EvidenceStore): Promise<Buffer | undefined> => {
    const file = await store.open(sha);
    return file === undefined ? undefined : Buffer.concat(await file.content.toArray());
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cev-evidence-'));
    committedRows = new Set();
    const isReferenced = (found: string): Promise<boolean> => Promise.resolve(committedRows.has(found));
    first = fileEvidenceStore(dir, isReferenced);
    second = fileEvidenceStore(dir, isReferenced);
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps the file when the creator fails after the other committed', async () => {
    const created = await first.put(bytes);
    const reused = await second.put(bytes);
    committedRows.add(sha);
    await reused.settle(true);
    await created.settle(false);
    assert.deepEqual(await readFile(pathOf()), bytes);
  });

  it('writes the file again when the other commits after the creator removed it', async () => {
    const created = await first.put(bytes);
    const reused = await second.put(bytes);
    await created.settle(false);
    await assert.rejects(stat(pathOf()), { code: 'ENOENT' });
    committedRows.add(sha);
    await reused.settle(true);
    assert.deepEqual(await contentOf(second), bytes);
    assert.deepEqual(await contentOf(first), bytes);
  });

  it('removes the file when no instance committed a row for it', async () => {
    const created = await first.put(bytes);
    const reused = await second.put(bytes);
    await reused.settle(false);
    await created.settle(false);
    await assert.rejects(stat(pathOf()), { code: 'ENOENT' });
  });

  it('keeps the file when whether a row refers to it cannot be told', async () => {
    const unsure = fileEvidenceStore(dir, () => Promise.reject(new Error('database unavailable')));
    const created = await unsure.put(bytes);
    await created.settle(false);
    assert.deepEqual(await readFile(pathOf()), bytes);
  });
});
