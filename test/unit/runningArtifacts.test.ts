import assert from 'node:assert/strict';
import { runningArtifactsOf } from '../../server/api/rules/runningArtifacts.ts';

const fp = (c: string): string => c.repeat(64);

describe('runningArtifactsOf', () => {
  it('groups K8S pods by digest, names by the image reference, one timestamp and pod entry per pod', () => {
    const owners = [
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        name: 'web-1',
        uid: 'u',
        controller: true,
        blockOwnerDeletion: true,
      },
    ];
    const artifacts = runningArtifactsOf('K8S', {
      artifacts: [
        {
          podName: 'web-a',
          namespace: 'prod',
          creationTimestamp: 10,
          digests: { 'reg/web:1': fp('a'), 'reg/side:2': fp('b') },
          owners,
        },
        { podName: 'web-b', namespace: 'prod', creationTimestamp: 11, digests: { 'reg/web:latest': fp('a') } },
      ],
    });
    assert.equal(artifacts.length, 2);
    const web = artifacts[0];
    assert.equal(web.fingerprint, fp('a'));
    assert.equal(web.name, 'reg/web:1', 'the first digests key names the artifact');
    assert.deepEqual(web.creationTimestamps, [10, 11]);
    assert.deepEqual(
      { ...web.pods },
      {
        'web-a': { namespace: 'prod', creationTimestamp: 10, owners },
        'web-b': { namespace: 'prod', creationTimestamp: 11, owners: [] },
      },
    );
    assert.equal(web.ecsContext, null);
    assert.equal(artifacts[1].name, 'reg/side:2');
    assert.deepEqual(artifacts[1].creationTimestamps, [10]);
  });

  it('keeps ECS task context and groups unknown ("") digests by name', () => {
    const artifacts = runningArtifactsOf('ECS', {
      artifacts: [
        {
          taskArn: 'arn:1',
          cluster_name: 'c',
          service_name: 's',
          digests: { 'app:1': fp('c'), agent: '' },
          creationTimestamp: 5,
        },
        { taskArn: 'arn:2', digests: { 'app:1': fp('C'), agent: '' }, creationTimestamp: 6 },
      ],
    });
    assert.equal(artifacts.length, 2);
    assert.equal(artifacts[0].fingerprint, fp('c'), 'digests are compared lower-case');
    assert.deepEqual(artifacts[0].ecsContext, [
      { taskArn: 'arn:1', cluster_name: 'c', service_name: 's' },
      { taskArn: 'arn:2' },
    ]);
    assert.equal(artifacts[0].pods, null);
    assert.equal(artifacts[1].fingerprint, '');
    assert.equal(artifacts[1].name, 'agent');
    assert.equal(artifacts[1].creationTimestamps.length, 2);
  });

  it('reads server, docker, S3 and lambda items as digests plus a timestamp', () => {
    for (const type of ['server', 'docker', 'S3', 'lambda'] as const) {
      const artifacts = runningArtifactsOf(type, {
        artifacts: [{ digests: { thing: fp('d') }, creationTimestamp: 1 }],
      });
      assert.deepEqual(artifacts, [
        {
          fingerprint: fp('d'),
          name: 'thing',
          creationTimestamps: [1],
          pods: null,
          ecsContext: null,
          instanceContext: null,
        },
      ]);
    }
  });

  it('keeps azure-apps and cloud-run instance context', () => {
    const azure = runningArtifactsOf('azure-apps', {
      artifacts: [
        {
          app_name: 'web',
          app_kind: 'app',
          digests_source: 'acr',
          digests: { 'web:1': fp('e') },
          creationTimestamp: 1,
        },
      ],
    });
    assert.deepEqual(azure[0].instanceContext, [{ app_name: 'web', app_kind: 'app', digests_source: 'acr' }]);
    const run = runningArtifactsOf('cloud-run', {
      type: 'cloud-run',
      artifacts: [
        {
          kind: 'service',
          serviceName: 'api',
          revisionName: 'api-1',
          digests: { 'api:1': fp('f') },
          creationTimestamp: 2,
        },
      ],
    });
    assert.deepEqual(run[0].instanceContext, [{ kind: 'service', serviceName: 'api', revisionName: 'api-1' }]);
  });

  it('reads an empty or shapeless body as nothing running', () => {
    assert.deepEqual(runningArtifactsOf('K8S', { artifacts: [] }), []);
    assert.deepEqual(runningArtifactsOf('server', null), []);
    assert.deepEqual(runningArtifactsOf('server', { artifacts: [null, { creationTimestamp: 1 }] }), []);
  });
});
