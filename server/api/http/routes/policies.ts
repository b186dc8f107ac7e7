// Environment policies (reference §2.9, spec endpoint 11) and assert-artifact (§2.10). Policy
// documents are checked by the shared core; evaluation is the shared policy evaluator's.
import { orgOf, principalOf } from '../auth.ts';
import { checkedBody } from '../requestBodies.ts';
import type { RoutePlugin } from '../context.ts';
import { invalid, withInput } from '../../errors.ts';
import { jsonPart, multipartBody, partText, readMultipart } from '../multipart.ts';
import { renderEach } from '../../views/placeholders.ts';
import { policyView } from '../../views/policies.ts';
import { sendJsonString } from '../replies.ts';

const orgParams = { type: 'object', required: ['org'], properties: { org: { type: 'string' } } } as const;

const policyParams = {
  type: 'object',
  required: ['org', 'name'],
  properties: { org: { type: 'string' }, name: { type: 'string' } },
} as const;

const fingerprintParams = {
  type: 'object',
  required: ['org', 'fingerprint'],
  properties: { org: { type: 'string' }, fingerprint: { type: 'string' } },
} as const;

const assertQuery = {
  type: 'object',
  properties: {
    flow_name: { type: 'string' },
    environment_name: { type: 'string' },
    policy_name: { type: 'array', items: { type: 'string' } },
  },
} as const;

const policyBody = multipartBody(
  '`payload` (JSON `{name, description?, comment?, type?: "env"}`) and the policy YAML as `policy_file` (file or text field).',
  { payload: { type: 'string' }, policy_file: { type: 'string', format: 'binary' } },
  ['payload', 'policy_file'],
);

export const policyRoutes: RoutePlugin = (app, { services }, done) => {
  const { policies } = services;

  app.put(
    '/policies/:org',
    { schema: { params: orgParams, consumes: ['multipart/form-data'], body: policyBody } },
    async (request, reply) => {
      const body = await readMultipart(request, 'payload');
      const payload = checkedBody('policy-create', jsonPart(body, 'payload'));
      const text = partText(body, 'policy_file');
      if (text === undefined) throw invalid({ policy_file: withInput('Field required', undefined) });
      const created = await policies.createOrVersion(orgOf(request), payload, text, principalOf(request).name);
      return sendJsonString(reply, created ? 201 : 200, 'OK');
    },
  );

  // Archiving (no route in the reference; the form of flows and environments, body null).
  for (const [action, archive] of [
    ['archive', true],
    ['unarchive', false],
  ] as const) {
    app.put(`/policies/:org/:name/${action}`, { schema: { params: policyParams } }, async (request, reply) => {
      await policies.setArchived(orgOf(request), request.params.name, archive, principalOf(request).name);
      return sendJsonString(reply, 200, 'OK');
    });
  }

  app.get(
    '/policies/:org',
    { schema: { params: orgParams } },
    async (request) => await renderEach(await policies.policiesOf(orgOf(request)), (policy) => policy.name, policyView),
  );

  app.get('/policies/:org/:name', { schema: { params: policyParams } }, async (request) =>
    policyView(await policies.named(orgOf(request), request.params.name)),
  );

  app.get(
    '/asserts/:org/fingerprint/:fingerprint',
    { schema: { params: fingerprintParams, querystring: assertQuery } },
    async (request) => await services.asserts.verdictOn(orgOf(request), request.params.fingerprint, request.query),
  );
  done();
};
