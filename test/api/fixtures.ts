// Small builders for API tests: flows, trails, attestations and artifacts through the real API,
// and the field messages of the error answers they get.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { ErrorBody } from './answers.ts';
import type { Reply, TestServer } from './harness.ts';

/** A deterministic 64-hex fingerprint for a label. */
export function fingerprint(label: string): string {
  return createHash('sha256').update(label).digest('hex');
}

/** A deterministic 40-hex commit SHA for a label. */
export function commit(label: string): string {
  return createHash('sha1').update(label).digest('hex');
}

export const WORKED_TEMPLATE = [
  'version: 1',
  'trail:',
  '  attestations:',
  '    - name: bar',
  '      type: generic',
  '  artifacts:',
  '    - name: cli',
  '      attestations:',
  '        - name: foo',
  '          type: generic',
  '',
].join('\n');

export async function createFlow(
  server: TestServer,
  org: string,
  name: string,
  template = 'version: 1\n',
  description = '',
): Promise<Reply> {
  const reply = await server.multipart('PUT', `/api/v2/flows/${org}/template_file`, {
    data_json: JSON.stringify({ name, description }),
    // A file part: form text fields have their line breaks normalised to CRLF on the way.
    template_file: { filename: 'template.yml', content: template },
  });
  assert.ok(reply.status === 201 || reply.status === 200, `create flow ${name}: ${reply.status} ${reply.text}`);
  return reply;
}

export async function beginTrail(
  server: TestServer,
  org: string,
  flow: string,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<Reply> {
  const reply = await server.multipart('PUT', `/api/v2/trails/${org}/${flow}`, {
    data_json: JSON.stringify({ name, ...extra }),
  });
  assert.ok(reply.status === 201 || reply.status === 200, `begin trail ${name}: ${reply.status} ${reply.text}`);
  return reply;
}

/** Creates (201) a physical environment: a K8S one described as production unless told. */
export async function createEnvironment(
  server: TestServer,
  org: string,
  name: string,
  type = 'K8S',
  description = 'production',
): Promise<void> {
  const reply = await server.json('PUT', `/api/v2/environments/${org}`, { name, type, description });
  assert.equal(reply.status, 201, `create environment ${name}: ${reply.text}`);
}

/** T is the type the caller reads the answer's body as (test/api/answers.ts), as with the harness's calls. */
export function attest<T = Reply['body']>(
  server: TestServer,
  org: string,
  flow: string,
  trail: string,
  kind: string,
  data: unknown,
  attachment?: { filename: string; content: string | Uint8Array },
): Promise<Reply<T>> {
  const parts: Record<string, string | { filename: string; content: string | Uint8Array }> = {
    data_json: JSON.stringify(data),
  };
  if (attachment !== undefined) parts.attachment_file = attachment;
  return server.multipart<T>('POST', `/api/v2/attestations/${org}/${flow}/trail/${trail}/${kind}`, parts);
}

export async function attestArtifact(
  server: TestServer,
  org: string,
  flow: string,
  body: Record<string, unknown>,
): Promise<Reply> {
  const reply = await server.json('POST', `/api/v2/artifacts/${org}/${flow}`, body);
  assert.ok(reply.status === 201 || reply.status === 200, `attest artifact: ${reply.status} ${reply.text}`);
  return reply;
}

export function scanResults(status = 'OK'): Record<string, unknown> {
  return {
    analysedAt: '2026-01-01T00:00:00Z',
    revision: commit('scan'),
    project: { key: 'app', url: 'https://scan.example.test/app' },
    qualityGate: { status, conditions: [{ metric: 'coverage', errorThreshold: '80', operator: 'LT', status }] },
  };
}

/** The message an error answer gives for one field; fails when it names none. */
export function fieldError(body: ErrorBody, field: string): string {
  const message = body.errors?.[field];
  assert.ok(message !== undefined, `no error for ${field} in ${JSON.stringify(body)}`);
  return message;
}
