import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { checkK8sReport } from '../../shared/reports/check.ts';
import { k8sReportFromKubectlOutput, k8sReportFromPods } from '../../shared/reports/kubectl.ts';

const podsJson = readFileSync(new URL('./kubectl/pods.json', import.meta.url), 'utf8');
const hex = (char: string) => char.repeat(64);

describe('kubectl pods → K8S report', () => {
  it('converts a realistic `kubectl get pods -A -o json` listing', () => {
    const result = k8sReportFromKubectlOutput(podsJson);
    assert.ok('report' in result, JSON.stringify(result));
    assert.deepEqual(result.report.artifacts, [
      {
        podName: 'web-7d9f8c6b5-x2kqp',
        namespace: 'shop',
        creationTimestamp: 1795166102,
        digests: { 'registry.example.com/shop/web:2.4.1': hex('a'), 'envoyproxy/envoy:v1.31.0': hex('b') },
        owners: [
          {
            apiVersion: 'apps/v1',
            kind: 'ReplicaSet',
            name: 'web-7d9f8c6b5',
            uid: '5f0c1a52-1f5e-4c0e-9d53-0c7c0b7b1a11',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      {
        podName: 'web-7d9f8c6b5-m8w4z',
        namespace: 'shop',
        creationTimestamp: 1795166205,
        digests: { 'registry.example.com/shop/web:2.4.1': hex('a') },
        owners: [
          {
            apiVersion: 'apps/v1',
            kind: 'ReplicaSet',
            name: 'web-7d9f8c6b5',
            uid: '5f0c1a52-1f5e-4c0e-9d53-0c7c0b7b1a11',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      {
        podName: 'kube-apiserver-control-plane',
        namespace: 'kube-system',
        creationTimestamp: 1795125600,
        digests: { 'registry.k8s.io/kube-apiserver:v1.31.2': '0123456789abcdef'.repeat(4) },
        owners: [
          {
            apiVersion: 'v1',
            kind: 'Node',
            name: 'control-plane',
            uid: 'c1d2e3f4-0000-4000-8000-000000000001',
            controller: true,
          },
        ],
      },
      {
        podName: 'standalone-debug',
        namespace: 'default',
        creationTimestamp: 1795168800,
        digests: { [`sha256-pinned/tool@sha256:${hex('c')}`]: hex('c') },
        owners: [],
      },
    ]);
  });

  it('produces a body the shared K8S report check accepts', () => {
    const result = k8sReportFromKubectlOutput(podsJson);
    assert.ok('report' in result);
    assert.deepEqual(checkK8sReport(result.report), []);
  });

  it('names the image by the pod spec reference, not the status image', () => {
    const result = k8sReportFromKubectlOutput(podsJson);
    assert.ok('report' in result);
    assert.ok(!('docker.io/envoyproxy/envoy:v1.31.0' in result.report.artifacts[0].digests));
  });

  it('leaves out init containers and lists containers without a digest as skipped', () => {
    const result = k8sReportFromKubectlOutput(podsJson);
    assert.ok('report' in result);
    assert.ok(
      result.report.artifacts.every((pod) => !Object.keys(pod.digests).some((image) => image.startsWith('busybox'))),
    );
    assert.deepEqual(
      result.skipped.map(({ namespace, podName, container }) => [namespace, podName, container]),
      [
        ['shop', 'web-7d9f8c6b5-m8w4z', 'proxy'],
        ['batch', 'nightly-report-29012345-q7t9v', 'report'],
      ],
    );
    assert.match(result.skipped[0].reason, /no imageID yet/);
  });

  it('accepts a single pod and lowercases digests', () => {
    const pod = {
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'n', creationTimestamp: '2026-01-01T00:00:00.900Z' },
      spec: { containers: [{ name: 'c', image: 'img:1' }] },
      status: { containerStatuses: [{ name: 'c', imageID: `docker-pullable://img@sha256:${'AB'.repeat(32)}` }] },
    };
    const result = k8sReportFromPods(pod);
    assert.ok('report' in result);
    assert.deepEqual(result.report.artifacts[0].digests, { 'img:1': 'ab'.repeat(32) });
    assert.equal(result.report.artifacts[0].creationTimestamp, 1767225600);
  });

  it('skips an imageID without a 64-hex digest and pods without a valid timestamp', () => {
    const result = k8sReportFromPods({
      items: [
        {
          metadata: { name: 'short', namespace: 'n', creationTimestamp: '2026-01-01T00:00:00Z' },
          spec: { containers: [{ name: 'c', image: 'img:1' }] },
          status: { containerStatuses: [{ name: 'c', imageID: 'sha256:abc' }] },
        },
        { metadata: { name: 'undated', namespace: 'n' }, spec: { containers: [{ name: 'c', image: 'img:1' }] } },
      ],
    });
    assert.ok('report' in result);
    assert.deepEqual(result.report.artifacts, []);
    assert.deepEqual(
      result.skipped.map((entry) => [entry.podName, entry.container]),
      [
        ['short', 'c'],
        ['undated', ''],
      ],
    );
    assert.match(result.skipped[0].reason, /imageID has no digest: sha256:abc/);
  });

  it('answers an error, never an exception, for output that is not a pod list', () => {
    assert.match(
      (k8sReportFromKubectlOutput('error: the server does not have a resource type') as { error: string }).error,
      /not JSON/,
    );
    assert.match((k8sReportFromPods({ kind: 'Service' }) as { error: string }).error, /items/);
    for (const value of [null, 3, 'x', [], { items: [null, 1, 'x', [], { metadata: 5, spec: [], status: 'x' }] }]) {
      assert.doesNotThrow(() => k8sReportFromPods(value));
    }
    assert.deepEqual(k8sReportFromPods({ items: [] }), { report: { artifacts: [] }, skipped: [] });
  });
});
