import assert from 'node:assert/strict';
import fc from 'fast-check';
import { diffSnapshot, type ArtifactState } from '../../server/api/rules/snapshotDiff.ts';

const fp = (c: string): string => c.repeat(64);
const art = (c: string, instances = 1, extra: Partial<ArtifactState> = {}): ArtifactState => ({
  fingerprint: fp(c),
  name: `img-${c}`,
  instances,
  compliant: null,
  provenanceKey: '',
  ...extra,
});

describe('diffSnapshot', () => {
  it('records the first report as a new snapshot with every artifact started', () => {
    const diff = diffSnapshot(null, [art('a', 2)]);
    assert.equal(diff.isNew, true);
    assert.deepEqual(
      diff.entries.map((e) => [e.annotation, e.event?.type]),
      [[{ type: 'started', was: 0, now: 2 }, 'started']],
    );
  });

  it('records an empty first report too (the environment has reported)', () => {
    assert.equal(diffSnapshot(null, []).isNew, true);
  });

  it('ignores instance counts alone: no snapshot, nothing scaled', () => {
    const diff = diffSnapshot([art('a', 1), art('b', 3)], [art('a', 5), art('b', 1)]);
    assert.deepEqual(diff, { isNew: false, entries: [] });
  });

  it('ignores names and order when the fingerprints are the same', () => {
    const diff = diffSnapshot([art('a'), art('b')], [{ ...art('b'), name: 'other-name' }, art('a')]);
    assert.equal(diff.isNew, false);
  });

  it('annotates started, unchanged and exited, and records counts on a snapshot saved for another reason', () => {
    const diff = diffSnapshot([art('a', 2), art('b', 1)], [art('a', 4), art('c', 1)]);
    assert.equal(diff.isNew, true);
    assert.deepEqual(
      diff.entries.map((e) => [e.artifact.fingerprint[0], e.annotation, e.event?.type ?? null]),
      [
        ['a', { type: 'unchanged', was: 2, now: 4 }, null],
        ['c', { type: 'started', was: 0, now: 1 }, 'started'],
        ['b', { type: 'exited', was: 1, now: 0 }, 'exited'],
      ],
    );
  });

  it('marks changed only for compliance or provenance differences', () => {
    const compliance = diffSnapshot([art('a', 1, { compliant: true })], [art('a', 1, { compliant: false })]);
    assert.equal(compliance.isNew, true);
    assert.equal(compliance.entries[0].event?.type, 'changed');
    assert.match(compliance.entries[0].event.description, /from compliant to non-compliant/);
    const provenance = diffSnapshot([art('a')], [art('a', 1, { provenanceKey: 'flow/trail' })]);
    assert.equal(provenance.isNew, true);
    assert.equal(provenance.entries[0].annotation.type, 'changed');
    assert.match(provenance.entries[0].event!.description, /Provenance changed to flow\/trail/);
  });

  it('does not carry an exited artifact into the next snapshot', () => {
    const previous = [art('a', 1), { ...art('b'), instances: 0 }];
    assert.equal(diffSnapshot(previous, [art('a', 1)]).isNew, false);
    assert.equal(diffSnapshot(previous, [art('a'), art('b')]).entries[1].event?.type, 'started');
  });

  it('records a forced snapshot (policy attached) with unchanged annotations when nothing differs', () => {
    const diff = diffSnapshot([art('a', 2)], [art('a', 2)], true);
    assert.equal(diff.isNew, true);
    assert.deepEqual(
      diff.entries.map((e) => [e.annotation.type, e.event]),
      [['unchanged', null]],
    );
  });

  it('identifies digest-less artifacts by name', () => {
    const unknown = { ...art('x'), fingerprint: '', name: 'agent' };
    assert.equal(diffSnapshot([unknown], [{ ...unknown, instances: 3 }]).isNew, false);
    assert.equal(diffSnapshot([unknown], [{ ...unknown, name: 'other' }]).isNew, true);
  });

  it('never makes a snapshot from counts alone, and always from a fingerprint set change (property)', () => {
    const states = fc.uniqueArray(fc.constantFrom(...'abcdefgh'), { minLength: 0, maxLength: 8 });
    fc.assert(
      fc.property(
        states,
        states,
        fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 8, maxLength: 8 }),
        (before, after, counts) => {
          const previous = before.map((c, i) => art(c, counts[i]));
          const current = after.map((c, i) => art(c, counts[7 - i]));
          const diff = diffSnapshot(previous, current);
          const sameSet = before.length === after.length && before.every((c) => after.includes(c));
          assert.equal(diff.isNew, !sameSet);
          if (diff.isNew) {
            assert.equal(
              diff.entries.filter((e) => e.event?.type === 'started').length,
              after.filter((c) => !before.includes(c)).length,
            );
            assert.equal(
              diff.entries.filter((e) => e.event?.type === 'exited').length,
              before.filter((c) => !after.includes(c)).length,
            );
            assert.equal(diff.entries.filter((e) => e.event?.type === 'changed').length, 0);
          }
        },
      ),
      { seed: 4, numRuns: 300 },
    );
  });
});
