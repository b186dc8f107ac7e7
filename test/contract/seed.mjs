// One of each resource in the org `default`, made through the API itself, so that the generated
// requests of the contract run reach real records (an operation that only ever answers 404 checks
// little). SEEDED.parameters pins the path parameters that name them.
const FINGERPRINT = 'a'.repeat(64);
const COMMIT = 'c0ffee0000000000000000000000000000000000';
const TEMPLATE =
  'version: 1\ntrail:\n  attestations:\n    - name: unit\n      type: junit\n  artifacts:\n    - name: app\n      attestations:\n        - name: scan\n          type: generic\n';

export const SEEDED = {
  parameters: {
    'path.flow': 'web',
    'path.trail': 't1',
    'path.env': 'prod',
    'path.fingerprint': FINGERPRINT,
    'path.sha': COMMIT,
    'path.identifier': 'ctl-1',
    'path.decision_id': 'none',
    'path.number': 1,
    'path.kind': 'generic',
    // The hosted paths of reference §8.4 name their parameters as the hosted service does.
    'path.env_name': 'prod',
    'path.flow_name': 'web',
    'path.repo': 'web-repo',
    'path.repo_name': 'web-repo',
    'path.version_number': 1,
  },
};

export async function seedResources(url, key) {
  const call = async (method, path, body, type = 'application/json') => {
    const headers = { authorization: `Bearer ${key}` };
    if (body !== undefined && type !== null) headers['content-type'] = type;
    const response = await fetch(`${url}/api/v2${path}`, {
      method,
      headers,
      body: type === 'application/json' && body !== undefined ? JSON.stringify(body) : body,
    });
    if (response.status >= 300)
      throw new Error(`contract seed: ${method} ${path} answered ${response.status}: ${await response.text()}`);
  };
  const flowForm = new FormData();
  flowForm.append('data_json', JSON.stringify({ name: 'web', description: 'the web app' }));
  flowForm.append('template_file', TEMPLATE);
  await call('PUT', '/flows/default/template_file', flowForm, null);
  const trail = new FormData();
  trail.append(
    'data_json',
    JSON.stringify({
      name: 't1',
      description: 'build 1',
      git_commit_info: { sha1: COMMIT, message: 'm', author: 'a', branch: 'main', timestamp: 1700000000 },
    }),
  );
  await call('PUT', '/trails/default/web', trail, null);
  await call('POST', '/artifacts/default/web', {
    fingerprint: FINGERPRINT,
    filename: 'web:1',
    trail_name: 't1',
    template_reference_name: 'app',
    git_commit: COMMIT,
    build_url: 'https://ci.example.test/1',
    commit_url: 'https://git.example.test/c/1',
    repo_info: { name: 'web-repo', url: 'https://git.example.test/web-repo', provider: 'github' },
  });
  const attestation = new FormData();
  attestation.append(
    'data_json',
    JSON.stringify({ attestation_name: 'scan', artifact_fingerprint: FINGERPRINT, is_compliant: true }),
  );
  await call('POST', '/attestations/default/web/trail/t1/generic', attestation, null);
  await call('PUT', '/environments/default', { name: 'prod', type: 'K8S', description: 'production' });
  await call('PUT', '/environments/default/prod/report/K8S', {
    artifacts: [
      {
        podName: 'web-0',
        namespace: 'prod',
        creationTimestamp: 1700000000,
        digests: { 'reg/web:1': FINGERPRINT },
        owners: null,
      },
    ],
  });
  const policy = new FormData();
  policy.append('payload', JSON.stringify({ name: 'strict', description: 'provenance required', type: 'env' }));
  policy.append(
    'policy_file',
    '_schema: https://compliance-evidence.dev/schemas/policy/environment/v1\nartifacts:\n  provenance:\n    required: true\n',
  );
  await call('PUT', '/policies/default', policy, null);
  await call('POST', '/environments/default/prod/policies', { policy_names: ['strict'] });
  await call('POST', '/controls/default', { identifier: 'ctl-1', name: 'Control one', description: 'seeded' });
  await call('PUT', '/actions/default', {
    name: 'notify',
    type: 'environment',
    targets: [{ type: 'EMAIL', emails: ['team@example.test'] }],
    environments: ['prod'],
    triggers: ['ON_STARTED_ARTIFACT'],
  });
}
