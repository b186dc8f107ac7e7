// Environment policies (reference §2.9, spec endpoint 11) and assert-artifact (§2.10). Policy
// documents are checked by the shared core; evaluation is the shared policy evaluator's.
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import {
  artifactState,
  assertedCompliance,
  evaluatePolicies,
  evaluateTrail,
  type ArtifactProvenance as PolicyProvenance,
} from '../../../../shared/compliance/index.ts';
import { normalizePolicy } from '../../../../shared/policies/model.ts';
import { orgOf, principalOf } from '../auth.ts';
import { checkedBody } from '../requestBodies.ts';
import type { AppContext, RouteOptions } from '../context.ts';
import { conflict, invalid, notFound, withInput } from '../../errors.ts';
import { nowSeconds } from '../../clock.ts';
import { environmentOr404 } from '../../services/lookups.ts';
import { policyValueOf } from '../../services/documents.ts';
import { jsonPart, multipartBody, partText, readMultipart } from '../multipart.ts';
import { renderEach } from '../../views/placeholders.ts';
import { sendJsonString } from '../replies.ts';
import { reevaluateEnvironment } from '../../services/snapshotting.ts';
import { appliedPoliciesOf } from '../../services/policyVerdicts.ts';
import { deliverSoon } from '../../delivery/notifications.ts';
import type { OutboxDelivery } from '../../store/outbox.ts';
import type { Org } from '../../store/orgs.ts';
import type { CurrentPolicy, Policy } from '../../store/policies.ts';

const POLICY_NOT_FOUND = 'Policy not found';

function policyView(policy: Policy) {
  return {
    name: policy.name,
    description: policy.description,
    type: policy.type,
    archived: policy.archived,
    consuming_envs: policy.consumingEnvs,
    created_at: policy.createdAt,
    created_by: policy.createdBy,
    last_modified_at: policy.lastModifiedAt,
    events: policy.events,
    versions: policy.versions.map((version) => ({
      version: version.version,
      policy_yaml: version.policyYaml,
      timestamp: version.timestamp,
      created_by: version.createdBy,
      comment: version.comment,
    })),
  };
}

const policyBody = multipartBody(
  '`payload` (JSON `{name, description?, comment?, type?: "env"}`) and the policy YAML as `policy_file` (file or text field).',
  { payload: { type: 'string' }, policy_file: { type: 'string', format: 'binary' } },
  ['payload', 'policy_file'],
);

/** Control identifiers the policy's attestation rules name in `for_control`. */
function controlsOf(policy: unknown): string[] {
  const model = normalizePolicy(policy);
  return [
    ...new Set(model.artifacts.attestations.flatMap((rule) => (rule.for_control === null ? [] : [rule.for_control]))),
  ];
}

async function assertArtifact(context: AppContext, org: Org, fingerprint: string, query: AssertQuery) {
  const { store } = context;
  const now = nowSeconds();
  let origins = (await store.provenance.originsOf(org.id, [fingerprint])).get(fingerprint) ?? [];
  if (query.flow_name !== undefined) origins = origins.filter((origin) => origin.flowName === query.flow_name);
  if (origins.length === 0) {
    throw notFound(
      query.flow_name === undefined
        ? `Artifact with fingerprint '${fingerprint}' does not exist in organization '${org.name}'`
        : `Artifact with fingerprint '${fingerprint}' does not exist in flow '${query.flow_name}' belonging to organization '${org.name}'`,
    );
  }
  // One entry per flow: the trail the fingerprint was last attested in there.
  const evaluations = new Map(
    origins.map((origin) => [
      origin.trailId,
      evaluateTrail(origin.trailTemplate, origin.attestations, origin.artifacts, now, origin.flowTemplateId),
    ]),
  );
  const latestPerFlow = new Map(origins.map((origin) => [origin.flowName, origin]));
  const evaluated = [...latestPerFlow.values()].map((origin) => ({
    origin,
    evaluation: evaluations.get(origin.trailId)!,
  }));
  const flows = evaluated.map(({ origin, evaluation }) => ({
    flow: origin.flowName,
    trail: origin.trailName,
    compliance_status: {
      status: evaluation.compliance_status.status,
      attestations_statuses: evaluation.compliance_status.attestations_statuses.map((status) => ({
        attestation_name: status.attestation_name,
        attestation_type: status.attestation_type,
        status: status.status,
        is_compliant: status.is_compliant,
        unexpected: status.unexpected,
      })),
    },
  }));
  const first = evaluated[0].origin;
  const htmlUrl = `${context.publicUrl()}/${encodeURIComponent(org.name)}/flows/${encodeURIComponent(first.flowName)}/artifacts/${fingerprint}?artifact_id=${first.artifactId}`;
  const policyNames = query.policy_name ?? [];
  if (query.environment_name === undefined && policyNames.length === 0) {
    return {
      scope: 'flow',
      compliant: artifactState(evaluated.map(({ evaluation }) => evaluation.compliance_state)) === 'COMPLIANT',
      flows,
      html_url: htmlUrl,
    };
  }
  let policies: CurrentPolicy[];
  let environment: string | undefined;
  let allowed = false;
  if (query.environment_name !== undefined) {
    const env = await environmentOr404(context.store, org, query.environment_name);
    environment = env.name;
    policies = await store.policies.attachedTo(env.id);
    allowed = (await store.environments.allowedIn(env.id)).has(fingerprint);
  } else {
    policies = await store.policies.currentByNames(org.id, policyNames);
    if (policies.length !== new Set(policyNames).size) throw notFound(POLICY_NOT_FOUND);
    policies = policyNames.map((name) => policies.find((policy) => policy.name === name)!);
  }
  const provenance: PolicyProvenance[] = origins.map((origin) => ({
    flow_name: origin.flowName,
    flow_tags: origin.flowTags,
    trail_name: origin.trailName,
    compliance_state: evaluations.get(origin.trailId)!.compliance_state,
    attestations: origin.attestations,
    artifacts: origin.artifacts,
  }));
  const decisions = evaluatePolicies({ name: first.filename, fingerprint, provenance }, appliedPoliciesOf(policies));
  return {
    scope: environment === undefined ? 'policy' : 'environment',
    // An artifact allowed in the environment is compliant there, as in its snapshots (reference §2.17).
    compliant: allowed || assertedCompliance(decisions),
    ...(environment === undefined ? {} : { environment }),
    policy_evaluations: decisions,
    flows,
    html_url: htmlUrl,
  };
}

interface AssertQuery {
  flow_name?: string;
  environment_name?: string;
  policy_name?: string[];
}

export const policyRoutes: FastifyPluginCallback<RouteOptions> = (app, { context }, done) => {
  const { store } = context;

  app.put<{ Params: { org: string } }>(
    '/policies/:org',
    { schema: { consumes: ['multipart/form-data'], body: policyBody } },
    async (request, reply) => {
      const org = orgOf(request);
      const body = await readMultipart(request, 'payload');
      const payload = checkedBody('policy-create', jsonPart(body, 'payload'));
      const text = partText(body, 'policy_file');
      if (text === undefined) throw invalid({ policy_file: withInput('Field required', undefined) });
      const policy = await policyValueOf(context.evaluations, text, 'policy_file', 'upload');
      const user = principalOf(request).name;
      const content = {
        policyYaml: text,
        comment: payload.comment ?? '',
        createdBy: user,
        controls: controlsOf(policy),
      };
      const created = await store.transaction(async () => {
        const now = nowSeconds();
        const existing = await store.policies.byName(org.id, payload.name);
        if (existing === undefined) {
          await store.policies.create(org.id, payload.name, payload.description ?? '', 'env', content, now);
          return true;
        }
        // A new version only when the document changed (reference §4.3).
        if (existing.versions.at(-1)!.policyYaml !== text) await store.policies.addVersion(existing.id, content, now);
        if (payload.description && payload.description !== existing.description)
          await store.policies.setDescription(existing.id, payload.description, now);
        return false;
      });
      return sendJsonString(reply, created ? 201 : 200, 'OK');
    },
  );

  // Archiving (no route in the reference; the form of flows and environments, body null): an
  // archived policy leaves lists and evaluation and frees its name, as archiving does everywhere
  // (reference §1.7); the environments that used it are judged again at once. Unarchiving brings
  // back the last policy archived under that name, unless a live one has taken the name.
  const archiving =
    (archive: boolean) =>
    async (request: FastifyRequest<{ Params: { org: string; name: string } }>, reply: FastifyReply) => {
      const org = orgOf(request);
      const user = principalOf(request).name;
      const deliveries = await store.transaction(async () => {
        const now = nowSeconds();
        const live = await store.policies.byName(org.id, request.params.name);
        let policy: Policy | undefined;
        if (archive) {
          if (live === undefined) throw notFound(POLICY_NOT_FOUND);
          policy = live;
          await store.policies.archive(live.id, user, now);
        } else {
          if (live !== undefined)
            throw conflict(
              `A policy named '${request.params.name}' is live in organization '${org.name}'; archive it before unarchiving another`,
            );
          policy = await store.policies.lastArchived(org.id, request.params.name);
          if (policy === undefined) throw notFound(POLICY_NOT_FOUND);
          await store.policies.unarchive(policy.id, user, now);
        }
        const found: OutboxDelivery[] = [];
        for (const name of policy.consumingEnvs) {
          const environment = await store.environments.byName(org.id, name);
          if (environment !== undefined) found.push(...(await reevaluateEnvironment(context, org, environment, now)));
        }
        return found;
      });
      deliverSoon(context, deliveries);
      return sendJsonString(reply, 200, 'OK');
    };
  app.put<{ Params: { org: string; name: string } }>('/policies/:org/:name/archive', archiving(true));
  app.put<{ Params: { org: string; name: string } }>('/policies/:org/:name/unarchive', archiving(false));

  app.get<{ Params: { org: string } }>(
    '/policies/:org',
    async (request) =>
      await renderEach(await store.policies.list(orgOf(request).id), (policy) => policy.name, policyView),
  );

  app.get<{ Params: { org: string; name: string } }>('/policies/:org/:name', async (request) => {
    const policy = await store.policies.byName(orgOf(request).id, request.params.name);
    if (policy === undefined) throw notFound(POLICY_NOT_FOUND);
    return policyView(policy);
  });

  app.get<{ Params: { org: string; fingerprint: string }; Querystring: AssertQuery }>(
    '/asserts/:org/fingerprint/:fingerprint',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: {
            flow_name: { type: 'string' },
            environment_name: { type: 'string' },
            policy_name: { type: 'array', items: { type: 'string' } },
          },
        },
      },
    },
    async (request) => await assertArtifact(context, orgOf(request), request.params.fingerprint, request.query),
  );
  done();
};
