import assert from 'node:assert/strict';
import { runningArtifactsOf } from '../../server/api/rules/runningArtifacts.ts';
import {
  evaluatedArtifactOf,
  stateOf,
  type ArtifactProvenance,
  type ArtifactVerdict,
} from '../../server/api/rules/snapshotArtifacts.ts';
import { nextSnapshotOf, type LatestSnapshot, type NextSnapshot } from '../../server/api/rules/snapshots.ts';

const fp = (c: string): string => c.repeat(64);
const noPolicy: ArtifactVerdict = { compliant: null, reasons: [], policyDecisions: [] };
const origin: ArtifactProvenance = {
  flow_name: 'web',
  trail_name: 't1',
  template_reference_name: 'app',
  git_commit: 'c'.repeat(40),
  commit_url: 'https://git/c',
  build_url: 'https://ci/1',
  html_url: 'http://h/acme/flows/web/artifacts/x',
  flow_html_url: 'http://h/acme/flows/web',
  repo_name: 'acme/web',
};

function pods(spec: Array<[string, string, number]>): unknown {
  return {
    artifacts: spec.map(([pod, digest, ts]) => ({
      podName: pod,
      namespace: 'prod',
      creationTimestamp: ts,
      digests: { [`img-${digest}`]: fp(digest) },
    })),
  };
}

function evaluate(body: unknown, verdict = noPolicy, provenance: ArtifactProvenance[] = []) {
  return runningArtifactsOf('K8S', body).map((running) => evaluatedArtifactOf(running, provenance, verdict));
}

function latestOf(snapshot: NextSnapshot): LatestSnapshot {
  return {
    states: snapshot.states,
    artifactsAt: (positions) => positions.map((position) => snapshot.artifacts[position]),
  };
}

describe('nextSnapshotOf', () => {
  it('tells the story of issue 4: new artifact, scale only, timestamps only, artifact removed', () => {
    const first = nextSnapshotOf(null, evaluate(pods([['p1', 'a', 1]])), 0)!;
    assert.deepEqual(
      first.events.map((e) => [e.type, e.artifact.name]),
      [['started', 'img-a']],
    );
    assert.equal(first.compliant, false, 'no policy → not compliant');

    const withNew = nextSnapshotOf(
      latestOf(first),
      evaluate(
        pods([
          ['p1', 'a', 1],
          ['p2', 'b', 2],
        ]),
      ),
      0,
    )!;
    assert.deepEqual(
      withNew.artifacts.map((a) => [a.name, a.annotation.type]),
      [
        ['img-a', 'unchanged'],
        ['img-b', 'started'],
      ],
    );
    assert.deepEqual(
      withNew.events.map((e) => e.type),
      ['started'],
    );

    const scaled = evaluate(
      pods([
        ['p1', 'a', 1],
        ['p3', 'a', 3],
        ['p2', 'b', 2],
      ]),
    );
    assert.equal(nextSnapshotOf(latestOf(withNew), scaled, 0), null, 'instance counts alone make no snapshot');
    const restarted = evaluate(
      pods([
        ['q1', 'a', 50],
        ['q2', 'b', 60],
      ]),
    );
    assert.equal(nextSnapshotOf(latestOf(withNew), restarted, 0), null, 'new pods and timestamps make no snapshot');

    const removed = nextSnapshotOf(
      latestOf(withNew),
      evaluate(
        pods([
          ['p2', 'b', 2],
          ['p4', 'b', 4],
        ]),
      ),
      0,
    )!;
    assert.deepEqual(
      removed.artifacts.map((a) => [a.name, a.annotation]),
      [
        ['img-b', { type: 'unchanged', was: 1, now: 2 }],
        ['img-a', { type: 'exited', was: 1, now: 0 }],
      ],
    );
    assert.deepEqual(
      removed.events.map((e) => [e.type, e.artifact.fingerprint]),
      [['exited', fp('a')]],
    );
    const exited = removed.artifacts[1];
    assert.deepEqual(exited.creationTimestamp, []);
    assert.deepEqual(exited.pods, {});
    assert.equal(stateOf(exited).instances, 0);
    assert.deepEqual(
      removed.states.map((s) => s.instances),
      [2, 0],
    );
  });

  it('records pods, timestamps and provenance on the snapshot artifact', () => {
    const snapshot = nextSnapshotOf(
      null,
      evaluate(
        pods([
          ['p1', 'a', 1],
          ['p2', 'a', 2],
        ]),
        noPolicy,
        [origin],
      ),
      0,
    )!;
    const artifact = snapshot.artifacts[0];
    assert.deepEqual(artifact.creationTimestamp, [1, 2]);
    assert.deepEqual(Object.keys(artifact.pods!), ['p1', 'p2']);
    assert.equal(artifact.flow_name, 'web');
    assert.equal(artifact.git_commit, 'c'.repeat(40));
    assert.deepEqual(artifact.flows, [{ ...origin, deployment_diff: null, commit_lead_time: null }]);
    assert.equal(stateOf(artifact).provenanceKey, 'web/t1');
  });

  it('makes a snapshot when compliance changes, with a changed event, and computes snapshot compliance', () => {
    const compliant = {
      compliant: true,
      reasons: [],
      policyDecisions: [{ policy_name: 'p', policy_version: 1, status: 'COMPLIANT' as const, rule_evaluations: [] }],
    };
    const first = nextSnapshotOf(null, evaluate(pods([['p1', 'a', 1]]), compliant), 1)!;
    assert.equal(first.compliant, true);
    assert.deepEqual(first.complianceCount, { true: 1, false: 0, null: 0 });
    const failing = { compliant: false, reasons: ['trail not compliant'], policyDecisions: [] };
    const second = nextSnapshotOf(latestOf(first), evaluate(pods([['p1', 'a', 1]]), failing), 1)!;
    assert.equal(second.compliant, false);
    assert.deepEqual(
      second.events.map((e) => [e.type, e.description]),
      [['changed', 'Compliance changed from compliant to non-compliant']],
    );
    assert.deepEqual(second.artifacts[0].reasons_for_incompliance, ['trail not compliant']);
  });

  it('forces a re-evaluated snapshot when asked', () => {
    const first = nextSnapshotOf(null, evaluate(pods([['p1', 'a', 1]])), 0)!;
    const same = nextSnapshotOf(latestOf(first), evaluate(pods([['p1', 'a', 1]])), 0, true)!;
    assert.deepEqual(same.events, [], 'nothing differs: a new index, no events');
    assert.deepEqual(
      same.artifacts.map((a) => a.annotation.type),
      ['unchanged'],
    );
    const compliant = { compliant: true, reasons: [], policyDecisions: [] };
    const attached = nextSnapshotOf(latestOf(first), evaluate(pods([['p1', 'a', 1]]), compliant), 1, true)!;
    assert.equal(attached.compliant, true);
    assert.deepEqual(
      attached.events.map((e) => e.description),
      ['Compliance changed from not evaluated to compliant'],
    );
  });
});
