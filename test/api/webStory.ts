// A small org as a team would have it, planted through the real API for the page tests: two flows,
// a custom coverage type with a rule, a compliant release, one that fails ("coverage 62 < 80", a
// failing test, a missing review), one saved by an override, an environment that runs them under
// two versions of a policy, one without a policy and one never reported, and controls with
// decisions (one archived). Names and values are plain, so the screenshots read as the product does.
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { hasChromium, launchChromium } from '../support/browser.ts';
import { attest, attestArtifact, beginTrail, commit, createEnvironment, createFlow, fingerprint } from './fixtures.ts';
import { startServer, type Reply, type TestServer } from './harness.ts';
import { DESKTOP, signIn } from './webKit.ts';

export const READER = 'acme-reader-key-1';
export const OTHER_READER = 'other-reader-key-1';
export const STORY_CONFIG = [
  'orgs: [{name: acme}, {name: other}, {name: quiet, features: {controls: false}}]',
  'api_keys:',
  `  - {key: ${READER}, orgs: [acme, quiet], role: reader}`,
  `  - {key: ${OTHER_READER}, orgs: [other], role: reader}`,
];

export const FP = {
  api41: fingerprint('api 41'),
  api42: fingerprint('api 42'),
  api40: fingerprint('api 40'),
  web: fingerprint('web 7'),
  sidecar: fingerprint('sidecar'),
};
export const COMMIT = { r41: commit('release 41'), r42: commit('release 42'), r40: commit('release 40') };
export const API_IMAGE = (release: number) => `registry.test/acme/api:${release}`;
export const WEB_IMAGE = 'registry.test/acme/web:7';
export const SIDECAR_IMAGE = 'registry.test/mesh/sidecar:1';

const BACKEND_TEMPLATE = [
  'version: 1',
  'trail:',
  '  attestations:',
  '    - name: review',
  '      type: generic',
  '  artifacts:',
  '    - name: api',
  '      attestations:',
  '        - name: unit-tests',
  '          type: junit',
  '        - name: coverage',
  '          type: custom:coverage',
  '        - name: quality',
  '          type: scan',
  '',
].join('\n');

const FRONTEND_TEMPLATE = [
  'version: 1',
  'trail:',
  '  attestations:',
  '    - name: e2e',
  '      type: junit',
  '  artifacts:',
  '    - name: web',
  '',
].join('\n');

const SCHEMA = '_schema: https://compliance-evidence.dev/schemas/policy/environment/v1';
export const POLICY_V1 = [SCHEMA, 'artifacts:', '  provenance:', '    required: true', ''].join('\n');
export const POLICY_V2 = [
  SCHEMA,
  'artifacts:',
  '  provenance:',
  '    required: true',
  '  trail-compliance:',
  '    required: true',
  '',
].join('\n');
const CHANGE_CONTROL_POLICY = [
  SCHEMA,
  'artifacts:',
  '  attestations:',
  '    - type: decision',
  '      for_control: CC8.1',
  '',
].join('\n');

function ok(reply: Reply, what: string): void {
  assert.ok(reply.status === 200 || reply.status === 201, `${what}: ${reply.status} ${reply.text}`);
}

function junit(failures: number): Record<string, unknown> {
  return {
    attestation_name: 'unit-tests',
    junit_results: [{ name: 'api unit tests', tests: 412, failures, errors: 0, skipped: 3, duration: 41.2 }],
  };
}

function quality(coverage: number): Record<string, unknown> {
  const status = coverage >= 80 ? 'OK' : 'ERROR';
  return {
    attestation_name: 'quality',
    scan_results: {
      analysedAt: '2026-01-01T00:00:00Z',
      revision: commit(`scan ${coverage}`),
      project: { key: 'api', url: 'https://scan.example.test/api' },
      qualityGate: {
        status,
        conditions: [
          { metric: 'coverage', status, value: String(coverage), operator: 'LESS_THAN', errorThreshold: '80' },
          {
            metric: 'duplicated_lines_density',
            status: 'OK',
            value: '1.2',
            operator: 'GREATER_THAN',
            errorThreshold: '3',
          },
        ],
      },
    },
  };
}

function k8s(pods: Array<[pod: string, image: string, fingerprint: string]>): Record<string, unknown> {
  return {
    artifacts: pods.map(([pod, image, digest]) => ({
      podName: pod,
      namespace: 'shop',
      creationTimestamp: 1_700_000_000,
      digests: { [image]: digest },
      owners: [],
    })),
  };
}

/** A release of the api: its trail, its artifact and the attestations asked for (each one optional). */
async function release(
  server: TestServer,
  number: number,
  facts: { fingerprint: string; commit: string; failures: number; coverage: number; review: boolean },
): Promise<void> {
  const trail = `release-${number}`;
  ok(
    await beginTrail(server, 'acme', 'backend', trail, {
      description: `Release ${number} of the api`,
      git_commit_info: {
        sha1: facts.commit,
        message: `Release ${number}`,
        author: 'Dana Developer',
        branch: 'main',
        timestamp: 1_700_000_000,
        url: `https://git.example.test/acme/api/commit/${facts.commit}`,
      },
    }),
    trail,
  );
  ok(
    await attestArtifact(server, 'acme', 'backend', {
      fingerprint: facts.fingerprint,
      filename: API_IMAGE(number),
      git_commit: facts.commit,
      trail_name: trail,
      template_reference_name: 'api',
      build_url: `https://ci.example.test/builds/${number}`,
    }),
    `${trail} artifact`,
  );
  const onArtifact = { artifact_fingerprint: facts.fingerprint };
  ok(await attest(server, 'acme', 'backend', trail, 'junit', { ...junit(facts.failures), ...onArtifact }), 'junit');
  ok(
    await attest(server, 'acme', 'backend', trail, 'custom', {
      attestation_name: 'coverage',
      type_name: 'coverage',
      attestation_data: { line_coverage: facts.coverage, tool: 'lcov' },
      ...onArtifact,
    }),
    'coverage',
  );
  ok(await attest(server, 'acme', 'backend', trail, 'scan', { ...quality(facts.coverage), ...onArtifact }), 'scan');
  if (facts.review)
    ok(
      await attest(server, 'acme', 'backend', trail, 'generic', {
        attestation_name: 'review',
        description: `Reviewed by Riley Reviewer: https://git.example.test/acme/api/pull/${number}`,
      }),
      'review',
    );
}

export async function plantStory(server: TestServer): Promise<void> {
  ok(
    await server.multipart('POST', '/api/v2/custom-attestation-types/acme', {
      data_json: JSON.stringify({
        name: 'coverage',
        description: 'Line coverage of the unit tests',
        evaluator: { content_type: 'jq', rules: ['.line_coverage >= 80'] },
      }),
      type_schema: {
        filename: 'schema.json',
        content: JSON.stringify({
          type: 'object',
          properties: { line_coverage: { type: 'number' }, tool: { type: 'string' } },
          required: ['line_coverage'],
        }),
      },
    }),
    'custom type',
  );
  await createFlow(server, 'acme', 'backend', BACKEND_TEMPLATE, 'The api service, released from main');
  await createFlow(server, 'acme', 'frontend', FRONTEND_TEMPLATE, 'The web shop');

  await release(server, 41, { fingerprint: FP.api41, commit: COMMIT.r41, failures: 0, coverage: 91, review: true });
  await release(server, 42, { fingerprint: FP.api42, commit: COMMIT.r42, failures: 1, coverage: 62, review: false });
  await release(server, 40, { fingerprint: FP.api40, commit: COMMIT.r40, failures: 0, coverage: 85, review: false });
  // Release 40 shipped as an emergency fix: its review came after the merge, so it is overridden.
  ok(
    await attest(server, 'acme', 'backend', 'release-40', 'generic', {
      attestation_name: 'review',
      description: 'Merged before review',
      is_compliant: false,
    }),
    'late review',
  );
  ok(
    await server.json('POST', '/api/v2/attestations/acme/backend/trail/release-40/override', {
      attestation_name: 'review',
      reason: 'Emergency fix, reviewed after the merge',
      new_compliance_status: true,
      original_attestation_type: 'generic',
    }),
    'override',
  );

  ok(await beginTrail(server, 'acme', 'frontend', 'main-7', { description: 'Web shop build 7' }), 'main-7');
  ok(
    await attestArtifact(server, 'acme', 'frontend', {
      fingerprint: FP.web,
      filename: WEB_IMAGE,
      git_commit: commit('web 7'),
      trail_name: 'main-7',
      template_reference_name: 'web',
    }),
    'web artifact',
  );
  ok(
    await attest(server, 'acme', 'frontend', 'main-7', 'junit', {
      attestation_name: 'e2e',
      junit_results: [{ name: 'checkout', tests: 38, failures: 0, errors: 0, skipped: 0, duration: 95 }],
    }),
    'e2e',
  );

  ok(await server.json('POST', '/api/v2/controls/acme', controlBody('CC8.1', 'Change management')), 'control');
  ok(await server.json('POST', '/api/v2/controls/acme', controlBody('LEGACY-1', 'Manual release sign-off')), 'old');
  ok(await server.json('POST', '/api/v2/controls/acme/LEGACY-1/archive', {}), 'archive');
  for (const [trail, compliant, description] of [
    ['release-41', true, 'Change board approved release 41'],
    ['release-42', false, 'Change board rejected release 42: coverage below the bar'],
  ] as const)
    ok(
      await attest(server, 'acme', 'backend', trail, 'system', {
        attestation_name: 'change-board',
        type_name: 'decision',
        control: 'CC8.1',
        description,
        attestation_data: { is_compliant: compliant },
      }),
      `decision ${trail}`,
    );

  await putPolicy(server, 'prod-rules', 'What runs in production must be built by a flow', POLICY_V1, 'first');
  await putPolicy(server, 'prod-rules', 'What runs in production must be built by a flow', POLICY_V2, 'trails too');
  await putPolicy(server, 'change-control', 'Releases need a change-board decision', CHANGE_CONTROL_POLICY, 'new');

  await createEnvironment(server, 'acme', 'production', 'K8S', 'The shop as customers use it');
  await createEnvironment(server, 'acme', 'staging', 'K8S', 'Where releases are tried first');
  await createEnvironment(server, 'acme', 'dev', 'K8S', 'Not reporting yet');
  ok(
    await server.json('POST', '/api/v2/environments/acme/production/policies', { policy_names: ['prod-rules'] }),
    'attach',
  );
  await report(server, 'production', [
    ['api-41-a', API_IMAGE(41), FP.api41],
    ['web-7-a', WEB_IMAGE, FP.web],
  ]);
  await report(server, 'production', [
    ['api-42-a', API_IMAGE(42), FP.api42],
    ['web-7-a', WEB_IMAGE, FP.web],
    ['sidecar-a', SIDECAR_IMAGE, FP.sidecar],
  ]);
  await report(server, 'production', [
    ['api-42-a', API_IMAGE(42), FP.api42],
    ['api-42-b', API_IMAGE(42), FP.api42],
    ['web-7-a', WEB_IMAGE, FP.web],
  ]);
  await report(server, 'staging', [['api-42-a', API_IMAGE(42), FP.api42]]);
}

function controlBody(identifier: string, name: string): Record<string, unknown> {
  return {
    identifier,
    name,
    description: `${name}: every change to production is approved before it ships.`,
    links: { handbook: `https://handbook.example.test/controls/${identifier}` },
  };
}

async function putPolicy(server: TestServer, name: string, description: string, yaml: string, comment: string) {
  ok(
    await server.multipart('PUT', '/api/v2/policies/acme', {
      payload: JSON.stringify({ name, description, comment, type: 'env' }),
      policy_file: { filename: 'policy.yml', content: yaml },
    }),
    `policy ${name}`,
  );
}

async function report(server: TestServer, environment: string, pods: Array<[string, string, string]>) {
  ok(await server.json('PUT', `/api/v2/environments/acme/${environment}/report/K8S`, k8s(pods)), environment);
}

/** A server holding the story, and a desktop-sized Chromium page signed in as its reader. */
export interface StoryInChromium {
  server: TestServer;
  browser: Browser;
  page: Page;
}

/**
 * Starts the story's server and Chromium before the suite's tests (skipping them without
 * Chromium) and stops both after them; the fields are set once the suite's first hook has run.
 */
export function storyInChromium(): StoryInChromium {
  const story = {} as StoryInChromium;
  before(async function () {
    if (!hasChromium()) this.skip();
    story.server = await startServer({ config: STORY_CONFIG });
    await plantStory(story.server);
    story.browser = await launchChromium();
    story.page = await story.browser.newPage({ viewport: DESKTOP });
    await signIn(story.page, story.server, READER);
  });
  after(async () => {
    await story.browser?.close();
    await story.server?.stop();
  });
  return story;
}
