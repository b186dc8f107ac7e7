import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { reportOf } from '../../../client/commands/report.ts';

const fixture = (path: string): unknown => JSON.parse(readFileSync(new URL(`../${path}`, import.meta.url), 'utf8'));

describe('K8S report from a file the user picked', () => {
  it('sends a K8S report file as it is', () => {
    const report = fixture('fixtures/k8s-report/valid.k8s-report.json');
    assert.deepEqual(reportOf(report), { report, skipped: [] });
  });

  it("converts kubectl's pods JSON with the shared conversion", () => {
    const { report, skipped } = reportOf(fixture('kubectl/pods.json'));
    const artifacts = (report as { artifacts: { podName: string; digests: Record<string, string> }[] }).artifacts;
    assert.ok(artifacts.length > 0);
    for (const artifact of artifacts)
      for (const digest of Object.values(artifact.digests)) assert.match(digest, /^[a-f0-9]{64}$/);
    assert.ok(Array.isArray(skipped));
  });

  it('says what it expected for anything else', () => {
    assert.throws(() => reportOf([1, 2]), /Expected a K8S report .* or the output of kubectl get pods -A -o json/);
    assert.throws(() => reportOf({ kind: 'Deployment' }), /kubectl get pods/);
  });
});
