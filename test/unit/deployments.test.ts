// What a snapshot says of each deployment (rules/deployments.ts through nextSnapshotOf): the cases
// the API tests do not reach, on the pure rules.
import assert from 'node:assert/strict';
import { runningArtifactsOf } from '../../server/api/rules/runningArtifacts.ts';
import { evaluatedArtifactOf, type ArtifactProvenance } from '../../server/api/rules/snapshotArtifacts.ts';
import { nextSnapshotOf, type LatestSnapshot, type NextSnapshot } from '../../server/api/rules/snapshots.ts';

const fp = (c: string): string => c.repeat(64);

function built(build: string, committedAt: number | null): ArtifactProvenance {
  const sha = build.repeat(40);
  return {
    flow_name: 'web',
    trail_name: `t-${build}`,
    template_reference_name: 'app',
    git_commit: sha,
    commit_url: `https://git/acme/web/commit/${sha}`,
    build_url: '',
    html_url: '',
    flow_html_url: '',
    repo_name: 'acme/web',
    git_commit_info: committedAt === null ? null : { sha1: sha, timestamp: committedAt },
    repo_url: 'https://git/acme/web',
    compliance_state: 'COMPLIANT',
  };
}

/** A K8S report: each build runs in one pod started at its time. */
function running(...pods: Array<[build: string, started: number]>) {
  const body = {
    artifacts: pods.map(([build, started], i) => ({
      podName: `p${i}`,
      namespace: 'prod',
      creationTimestamp: started,
      digests: { [`img-${build}`]: fp(build) },
    })),
  };
  return runningArtifactsOf('K8S', body).map((artifact) =>
    evaluatedArtifactOf(artifact, [built(artifact.name.slice(4), 1000)], {
      compliant: null,
      reasons: [],
      policyDecisions: [],
    }),
  );
}

function latestOf(snapshot: NextSnapshot): LatestSnapshot {
  return {
    states: snapshot.states,
    artifactsAt: (positions) => positions.map((position) => snapshot.artifacts[position]),
  };
}

describe('deployments in snapshots', () => {
  it('finds what a start replaced among the artifacts the previous snapshot recorded leaving', () => {
    const first = nextSnapshotOf(null, running(['a', 5000]), 0)!;
    const empty = nextSnapshotOf(latestOf(first), [], 0)!;
    const next = nextSnapshotOf(latestOf(empty), running(['b', 9000]), 0)!;
    assert.equal(next.artifacts[0].deployment_diff?.previous_fingerprint, fp('a'));
    assert.equal(next.artifacts[0].deployment_diff?.previous_running, false);
    assert.equal(next.artifacts[0].commit_lead_time, 8000);
  });

  it('prefers the artifact that ran before over one that was already leaving', () => {
    const first = nextSnapshotOf(null, running(['a', 10], ['b', 20]), 0)!;
    const second = nextSnapshotOf(latestOf(first), running(['b', 20]), 0)!;
    const third = nextSnapshotOf(latestOf(second), running(['c', 30]), 0)!;
    assert.equal(third.artifacts[0].deployment_diff?.previous_fingerprint, fp('b'));
  });

  it('measures from the earliest instance, and from a snapshot recorded before since was kept', () => {
    const first = nextSnapshotOf(null, running(['a', 7000], ['a', 6000]), 0)!;
    assert.equal(first.states[0].since, 6000);
    assert.equal(first.artifacts[0].commit_lead_time, 5000);
    const old = latestOf(first);
    const withoutSince = { ...old, states: old.states.map(({ since: _since, ...state }) => state) };
    const next = nextSnapshotOf(withoutSince, running(['a', 8000], ['b', 8000]), 0)!;
    assert.equal(next.artifacts[0].commit_lead_time, 7000, 'its instances now are all there is to go by');
  });

  it('has no lead time without a commit time or a start time', () => {
    const artifacts = running(['a', 0]);
    assert.equal(nextSnapshotOf(null, artifacts, 0)!.artifacts[0].commit_lead_time, null);
    artifacts[0].provenance[0].git_commit_info = null;
    artifacts[0].running.creationTimestamps = [50];
    assert.equal(nextSnapshotOf(null, artifacts, 0)!.artifacts[0].commit_lead_time, null);
  });
});
