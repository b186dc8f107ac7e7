// The spec's list rule: a record that cannot be rendered leaves the list standing, with a marked
// placeholder in its place. Records are damaged in the real database file, behind the server.
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import type { FromSchema } from 'json-schema-to-ts';
import type { placeholder } from '../../shared/contract/pagination.ts';
import type { Artifact, Flow, FlowAttestation, Page, Trail } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';
import { valueAt } from './valueAt.ts';
import { attest, attestArtifact, beginTrail, commit, createFlow, fingerprint } from './fixtures.ts';

/** A list record that could not be rendered, and a list item: the record or its placeholder. */
type Placeholder = FromSchema<typeof placeholder>;
type Listed<T> = T | Placeholder;

/** Whether a list item is the marked placeholder (the flag and what it must carry), not a record. */
function isPlaceholder<T>(entry: Listed<T>): entry is Placeholder {
  return (
    valueAt(entry, 'placeholder') === true &&
    typeof valueAt(entry, 'message') === 'string' &&
    typeof valueAt(entry, 'id') === 'string'
  );
}
const isRecord = <T>(entry: Listed<T>): entry is T => !isPlaceholder(entry);

describe('list placeholders for records that cannot be rendered', () => {
  let server: TestServer;
  let db: DatabaseSync;
  before(async () => {
    server = await startServer({ args: ['--org', 'acme'] });
    await createFlow(server, 'acme', 'good');
    await createFlow(server, 'acme', 'damaged');
    for (const name of ['t1', 't2', 't3']) await beginTrail(server, 'acme', 'good', name);
    for (const name of ['a1', 'a2']) await attest(server, 'acme', 'good', 't1', 'generic', { attestation_name: name });
    for (const [label, trail] of [
      ['x', 't2'],
      ['y', 't3'],
    ]) {
      await attestArtifact(server, 'acme', 'good', {
        fingerprint: fingerprint(label),
        filename: label,
        git_commit: commit(label),
        trail_name: trail,
        template_reference_name: label,
      });
    }
    db = new DatabaseSync(join(server.dataDir, 'cev.sqlite'));
    db.exec('PRAGMA busy_timeout = 5000');
  });
  after(async () => {
    db?.close();
    await server?.stop();
  });

  it('shows a placeholder for a damaged trail and renders the others', async () => {
    assert.equal(
      (await server.get<Page<Listed<Trail>>>('/api/v2/trails/acme/good?page=1&per_page=20')).body.data.length,
      3,
      'rendered (and kept) before the damage',
    );
    db.prepare("UPDATE trails SET template = '{not json' WHERE name = 't2'").run();
    const page = (await server.get<Page<Listed<Trail>>>('/api/v2/trails/acme/good?page=1&per_page=20')).body;
    assert.equal(page.pagination.total, 3);
    assert.deepEqual(
      page.data.map((entry) => (isPlaceholder(entry) ? 'placeholder' : entry.name)),
      ['t3', 'placeholder', 't1'],
    );
    assert.equal(
      (await server.get<Page<Listed<Trail>>>('/api/v2/trails/acme?page=1&per_page=20')).body.data.filter(isPlaceholder)
        .length,
      1,
    );
  });

  it('shows placeholders for a damaged attestation, artifact and flow', async () => {
    db.prepare("UPDATE trails SET template = (SELECT template FROM trails WHERE name = 't1') WHERE name = 't2'").run();
    assert.equal(
      (await server.get<Page<Listed<Trail>>>('/api/v2/trails/acme/good?page=1&per_page=20')).body.data.filter(
        isPlaceholder,
      ).length,
      0,
      'repaired, rendered again',
    );
    db.prepare("UPDATE attestations SET body = 'nope' WHERE name = 'a1'").run();
    const attestations = (await server.get<Page<Listed<FlowAttestation>>>('/api/v2/attestations/acme/good')).body;
    assert.equal(attestations.data.length, 2);
    assert.equal(attestations.data.filter(isPlaceholder).length, 1);
    assert.equal(attestations.data.find(isRecord)?.attestation_name, 'a2');

    db.prepare("UPDATE artifacts SET body = '[' WHERE filename = 'x'").run();
    const artifacts = (await server.get<Listed<Artifact>[]>('/api/v2/artifacts/acme')).body;
    assert.equal(artifacts.length, 2);
    assert.deepEqual(artifacts.map((entry) => (isPlaceholder(entry) ? 'placeholder' : entry.filename)).sort(), [
      'placeholder',
      'y',
    ]);

    db.prepare("UPDATE flows SET tags = '{' WHERE name = 'damaged'").run();
    const flows = (await server.get<Listed<Flow>[]>('/api/v2/flows/acme')).body;
    assert.equal(flows.length, 2);
    assert.equal(flows.filter(isPlaceholder).length, 1);
    assert.equal(flows.find(isRecord)?.name, 'good');
  });
});

describe('list items read their related rows together, and fail alone', () => {
  let server: TestServer;
  let db: DatabaseSync;
  before(async () => {
    server = await startServer({ args: ['--org', 'acme'] });
    for (const flow of ['first', 'second']) {
      await createFlow(server, 'acme', flow);
      for (const trail of [`${flow}-1`, `${flow}-2`]) {
        await beginTrail(server, 'acme', flow, trail);
        await attestArtifact(server, 'acme', flow, {
          fingerprint: fingerprint(trail),
          filename: trail,
          git_commit: commit(trail),
          trail_name: trail,
          template_reference_name: trail,
        });
        await attest(server, 'acme', flow, trail, 'generic', { attestation_name: `${trail}-check` });
      }
    }
    db = new DatabaseSync(join(server.dataDir, 'cev.sqlite'));
    db.exec('PRAGMA busy_timeout = 5000');
  });
  after(async () => {
    db?.close();
    await server?.stop();
  });

  const names = (list: Array<Record<string, unknown>>, field: string) =>
    list.map((entry) => (entry.placeholder === true ? 'placeholder' : entry[field])).sort();

  it('a damaged attestation fails the artifacts of its trail and the flow whose latest trail it is, nothing else', async () => {
    const before = (await server.get<Listed<Artifact>[]>('/api/v2/artifacts/acme')).body;
    assert.deepEqual(names(before, 'filename'), ['first-1', 'first-2', 'second-1', 'second-2']);
    // second-2 is the latest trail of flow second; first-1 is no flow's latest trail.
    db.prepare("UPDATE attestations SET body = 'nope' WHERE name IN ('first-1-check', 'second-2-check')").run();
    const artifacts = (await server.get<Listed<Artifact>[]>('/api/v2/artifacts/acme?page=1&per_page=10')).body;
    assert.deepEqual(names(artifacts, 'filename'), ['first-2', 'placeholder', 'placeholder', 'second-1']);
    const flows = (await server.get<Page<Listed<Flow>>>('/api/v2/flows/acme?page=1&per_page=10')).body.data;
    assert.deepEqual(names(flows, 'name'), ['first', 'placeholder']);
    assert.equal(flows.filter(isRecord).find((entry) => entry.name === 'first')?.latest_state !== undefined, true);
  });
});
