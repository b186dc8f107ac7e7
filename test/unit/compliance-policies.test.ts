import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import {
  artifactComplianceCount,
  artifactPolicyCompliance,
  assertedCompliance,
  evaluatePolicies,
  reasonsForIncompliance,
  snapshotCompliance,
  type AppliedPolicy,
  type ArtifactProvenance,
  type PolicyArtifact,
} from '../../shared/compliance/index.ts';
import { normalizePolicy } from '../../shared/policies/model.ts';
import { parseCondition } from '../../shared/expressions/index.ts';
import { validateText } from '../../shared/validate.ts';

const SCHEMA = 'https://compliance-evidence.dev/schemas/policy/environment/v1';
const FP = 'f'.repeat(64);

function policy(name: string, artifacts: unknown, version = 1): AppliedPolicy {
  return { name, version, policy: normalizePolicy({ _schema: SCHEMA, artifacts }) };
}

function trail(extra: Partial<ArtifactProvenance> = {}): ArtifactProvenance {
  return {
    flow_name: 'runner',
    flow_tags: { team: 'platform' },
    trail_name: 'abc123',
    compliance_state: 'COMPLIANT',
    attestations: [],
    artifacts: [{ id: 'a1', fingerprint: FP, template_reference_name: 'app', created_at: 1 }],
    ...extra,
  };
}

function running(provenance: ArtifactProvenance[], name = 'registry.example/acme/app:1.0'): PolicyArtifact {
  return { name, fingerprint: FP, provenance };
}

/** The two example policies of the reference (§4.1), as the official client's tests use them. */
const provenanceAndTrail = policy('provenance-and-trail', {
  provenance: { required: true },
  'trail-compliance': { required: true },
});
const decisionFor = (control: string) =>
  policy('needs-decision', {
    provenance: { required: true },
    attestations: [{ name: 'decision', type: 'decision', for_control: control }],
  });

describe('policy model', () => {
  it('fills the defaults and keeps the stored snake-case form', () => {
    assert.deepEqual(normalizePolicy({ _schema: SCHEMA, artifacts: { attestations: [{ type: 'junit' }] } }), {
      schema_version: SCHEMA,
      artifacts: {
        provenance: { required: false, exceptions: [] },
        trail_compliance: { required: false, exceptions: [] },
        attestations: [{ name: '*', type: 'junit', if_condition: null, must_be_compliant: true, for_control: null }],
      },
    });
  });

  it('carries conditions as if_condition: {text}', () => {
    const model = normalizePolicy({
      _schema: SCHEMA,
      artifacts: {
        provenance: { required: true, exceptions: [{ if: '${{ flow.name == "runner" }}' }] },
        'trail-compliance': { required: true, exceptions: [{ if: '${{ matches(artifact.name, "^acme:.*") }}' }] },
        attestations: [
          {
            name: 'decision',
            type: 'decision',
            if: '${{ exists(flow.tags.prod) }}',
            must_be_compliant: false,
            for_control: 'C-1',
          },
        ],
      },
    });
    assert.deepEqual(model.artifacts.provenance, {
      required: true,
      exceptions: [{ if_condition: { text: '${{ flow.name == "runner" }}' } }],
    });
    assert.deepEqual(model.artifacts.trail_compliance.exceptions, [
      { if_condition: { text: '${{ matches(artifact.name, "^acme:.*") }}' } },
    ]);
    assert.deepEqual(model.artifacts.attestations[0], {
      name: 'decision',
      type: 'decision',
      if_condition: { text: '${{ exists(flow.tags.prod) }}' },
      must_be_compliant: false,
      for_control: 'C-1',
    });
    assert.deepEqual(JSON.parse(JSON.stringify(model)), model, 'the model is plain JSON, storable as policy_dump');
  });

  it('models every valid policy fixture with conditions the evaluator can run', () => {
    const dir = new URL('./fixtures/env-policy/', import.meta.url);
    const valid = readdirSync(dir).filter((file) => file.startsWith('valid-'));
    assert.ok(valid.length >= 3);
    for (const file of valid) {
      const { value, findings } = validateText('env-policy', readFileSync(new URL(file, dir), 'utf8'));
      assert.deepEqual(
        findings.filter((finding) => finding.severity === 'error'),
        [],
        file,
      );
      const model = normalizePolicy(value);
      const conditions = [
        ...[...model.artifacts.provenance.exceptions, ...model.artifacts.trail_compliance.exceptions].flatMap(
          (exception) => (exception.if_condition ? [exception.if_condition] : []),
        ),
        ...model.artifacts.attestations.flatMap((rule) => (rule.if_condition ? [rule.if_condition] : [])),
      ];
      for (const condition of conditions)
        assert.deepEqual(parseCondition(condition.text).errors, [], `${file}: ${condition.text}`);
      const [decision] = evaluatePolicies(running([trail()]), [{ name: file, version: 1, policy: model }]);
      assert.ok(decision, file);
    }
  });

  it('is total on values that skipped the check', () => {
    for (const value of [null, 1, 'x', [], { artifacts: [] }, { artifacts: { attestations: [null, 3] } }]) {
      const model = normalizePolicy(value);
      assert.equal(model.artifacts.provenance.required, false);
    }
    assert.deepEqual(normalizePolicy({ artifacts: { attestations: [null] } }).artifacts.attestations[0], {
      name: '*',
      type: '*',
      if_condition: null,
      must_be_compliant: true,
      for_control: null,
    });
  });
});

describe('policy evaluation', () => {
  it('provenance plus trail compliance on an artifact from an empty-template flow: compliant', () => {
    const [decision] = evaluatePolicies(running([trail()]), [provenanceAndTrail]);
    assert.deepEqual(decision, {
      policy_name: 'provenance-and-trail',
      policy_version: 1,
      status: 'COMPLIANT',
      rule_evaluations: [
        {
          rule: { type: 'provenance', definition: { required: true, exceptions: [] } },
          satisfied: true,
          ignored: false,
          resolutions: [{ type: 'rule_satisfied', context: { flow_name: 'runner', trail_name: 'abc123' } }],
        },
        {
          rule: { type: 'trail-compliance', definition: { required: true, exceptions: [] } },
          satisfied: true,
          ignored: false,
          resolutions: [
            {
              type: 'rule_satisfied',
              context: { flow_name: 'runner', trail_name: 'abc123', artifact_status: 'COMPLIANT' },
            },
          ],
        },
      ],
    });
  });

  it('two requested policies come back in request order', () => {
    const decisions = evaluatePolicies(running([trail()]), [
      policy('second', { provenance: { required: true } }, 4),
      provenanceAndTrail,
    ]);
    assert.deepEqual(
      decisions.map((decision) => [decision.policy_name, decision.policy_version]),
      [
        ['second', 4],
        ['provenance-and-trail', 1],
      ],
    );
    assert.equal(assertedCompliance(decisions), true);
  });

  it('an unknown fingerprint fails provenance and trail compliance', () => {
    const [decision] = evaluatePolicies(running([]), [provenanceAndTrail]);
    assert.equal(decision.status, 'NON-COMPLIANT');
    assert.deepEqual(
      decision.rule_evaluations.map((evaluation) => [evaluation.rule.type, evaluation.satisfied, evaluation.ignored]),
      [
        ['provenance', false, false],
        ['trail-compliance', false, false],
      ],
    );
    assert.deepEqual(reasonsForIncompliance([decision]), [
      "Policy 'provenance-and-trail' (version 1): the artifact has no provenance (it was never attested to a flow)",
      "Policy 'provenance-and-trail' (version 1): trail compliance is required but the artifact has no trail",
    ]);
  });

  it('a trail that is not COMPLIANT fails trail compliance with non_compliant_in_trail', () => {
    const [decision] = evaluatePolicies(running([trail({ compliance_state: 'INCOMPLETE' })]), [provenanceAndTrail]);
    assert.equal(decision.status, 'NON-COMPLIANT');
    assert.deepEqual(decision.rule_evaluations[1].resolutions, [
      {
        type: 'non_compliant_in_trail',
        context: { flow_name: 'runner', trail_name: 'abc123', artifact_status: 'INCOMPLETE' },
      },
    ]);
    assert.match(reasonsForIncompliance([decision])[0], /the trail is INCOMPLETE in trail 'abc123' of flow 'runner'/);
  });

  it('trail compliance must hold in every trail of the artifact', () => {
    const two = running([
      trail(),
      trail({ flow_name: 'release', trail_name: 'r1', compliance_state: 'NON-COMPLIANT' }),
    ]);
    const [decision] = evaluatePolicies(two, [provenanceAndTrail]);
    assert.equal(decision.rule_evaluations[1].satisfied, false);
    assert.deepEqual(
      decision.rule_evaluations[1].resolutions.map((resolution) => resolution.type),
      ['rule_satisfied', 'non_compliant_in_trail'],
    );
  });

  it('an exception whose if holds skips the rule', () => {
    const excepted = policy('excepted', {
      provenance: { required: true, exceptions: [{ if: '${{ matches(artifact.name, "^registry.example/acme/") }}' }] },
      'trail-compliance': { required: true, exceptions: [{ if: '${{ flow.name == "release" }}' }] },
    });
    const [noProvenance] = evaluatePolicies(running([]), [excepted]);
    assert.deepEqual(noProvenance.rule_evaluations[0], {
      rule: {
        type: 'provenance',
        definition: {
          required: true,
          exceptions: [{ if: '${{ matches(artifact.name, "^registry.example/acme/") }}' }],
        },
      },
      satisfied: true,
      ignored: true,
      resolutions: [{ type: 'rule_not_applicable', context: {} }],
    });
    assert.equal(noProvenance.rule_evaluations[1].satisfied, false, 'flow.name is null without provenance');
    const [other] = evaluatePolicies(running([], 'elsewhere/app:1'), [excepted]);
    assert.equal(other.rule_evaluations[0].satisfied, false);
    const release = running([trail({ flow_name: 'release', compliance_state: 'NON-COMPLIANT' })]);
    const [skipped] = evaluatePolicies(release, [excepted]);
    assert.equal(skipped.status, 'COMPLIANT');
    assert.deepEqual(skipped.rule_evaluations[1].resolutions, [
      { type: 'rule_not_applicable', context: { flow_name: 'release', trail_name: 'abc123' } },
    ]);
    assert.equal(skipped.rule_evaluations[1].ignored, true);
  });

  it('reads flow tags in conditions', () => {
    const tagged = policy('tagged', {
      'trail-compliance': { required: true, exceptions: [{ if: '${{ flow.tags.team == "platform" }}' }] },
    });
    assert.equal(
      evaluatePolicies(running([trail({ compliance_state: 'INCOMPLETE' })]), [tagged])[0].status,
      'COMPLIANT',
    );
    assert.equal(
      evaluatePolicies(running([trail({ compliance_state: 'INCOMPLETE', flow_tags: {} })]), [tagged])[0].status,
      'NON-COMPLIANT',
    );
  });

  it('a decision for a control that the trail lacks: missing_attestation with for_control', () => {
    const [decision] = evaluatePolicies(running([trail()]), [decisionFor('C-1')]);
    assert.equal(decision.status, 'NON-COMPLIANT');
    assert.deepEqual(decision.rule_evaluations[1], {
      rule: {
        type: 'attestation',
        definition: { name: 'decision', type: 'decision', must_be_compliant: true, for_control: 'C-1' },
      },
      satisfied: false,
      ignored: false,
      resolutions: [
        { type: 'missing_attestation', context: { flow_name: 'runner', trail_name: 'abc123', for_control: 'C-1' } },
      ],
    });
    const [none] = evaluatePolicies(running([]), [decisionFor('C-1')]);
    assert.deepEqual(none.rule_evaluations[1].resolutions, [
      { type: 'missing_attestation', context: { for_control: 'C-1' } },
    ]);
  });

  it('a decision for another control does not count', () => {
    const other = {
      id: 'd1',
      name: 'decision',
      type: 'system:decision',
      is_compliant: true,
      created_at: 5,
      control: 'C-2',
    };
    const [decision] = evaluatePolicies(running([trail({ attestations: [other] })]), [decisionFor('C-1')]);
    assert.equal(decision.rule_evaluations[1].resolutions[0].type, 'missing_attestation');
  });

  it('a non-compliant decision: non_compliant_attestation; a compliant one satisfies', () => {
    const failing = {
      id: 'd1',
      name: 'decision',
      type: 'system:decision',
      is_compliant: false,
      created_at: 5,
      control: 'C-1',
    };
    const [decision] = evaluatePolicies(running([trail({ attestations: [failing] })]), [decisionFor('C-1')]);
    assert.equal(decision.status, 'NON-COMPLIANT');
    assert.deepEqual(decision.rule_evaluations[1].resolutions, [
      { type: 'non_compliant_attestation', context: { flow_name: 'runner', trail_name: 'abc123', for_control: 'C-1' } },
    ]);
    assert.match(
      reasonsForIncompliance([decision])[0],
      /attestation 'decision' of type 'decision' for control 'C-1' is not compliant in trail 'abc123'/,
    );
    const passing = { ...failing, id: 'd2', is_compliant: true, created_at: 6 };
    const [fixed] = evaluatePolicies(running([trail({ attestations: [failing, passing] })]), [decisionFor('C-1')]);
    assert.equal(fixed.status, 'COMPLIANT');
  });

  it('must_be_compliant: false needs only presence', () => {
    const lenient = policy('lenient', { attestations: [{ name: 'tests', type: 'junit', must_be_compliant: false }] });
    const failingTests = {
      id: 't',
      name: 'tests',
      type: 'junit',
      is_compliant: false,
      created_at: 1,
      artifact_fingerprint: FP,
    };
    assert.equal(
      evaluatePolicies(running([trail({ attestations: [failingTests] })]), [lenient])[0].status,
      'COMPLIANT',
    );
    assert.equal(evaluatePolicies(running([trail()]), [lenient])[0].status, 'NON-COMPLIANT');
  });

  it('counts trail-level attestations and those bound to this artifact, not those of other artifacts', () => {
    const rule = policy('scan', { attestations: [{ name: '*', type: 'scan' }] });
    const otherFp = 'e'.repeat(64);
    const artifacts = [
      { id: 'a1', fingerprint: FP, template_reference_name: 'app', created_at: 1 },
      { id: 'a2', fingerprint: otherFp, template_reference_name: 'db', created_at: 1 },
    ];
    const forOther = {
      id: 's1',
      name: 'scan',
      type: 'scan',
      is_compliant: true,
      created_at: 2,
      artifact_fingerprint: otherFp,
    };
    assert.equal(
      evaluatePolicies(running([trail({ artifacts, attestations: [forOther] })]), [rule])[0].status,
      'NON-COMPLIANT',
    );
    const bySlot = { id: 's2', name: 'scan', type: 'scan', is_compliant: true, created_at: 2, target_artifact: 'app' };
    assert.equal(
      evaluatePolicies(running([trail({ artifacts, attestations: [forOther, bySlot] })]), [rule])[0].status,
      'COMPLIANT',
    );
    const trailLevel = { id: 's3', name: 'scan', type: 'scan', is_compliant: true, created_at: 2 };
    assert.equal(
      evaluatePolicies(running([trail({ artifacts, attestations: [trailLevel] })]), [rule])[0].status,
      'COMPLIANT',
    );
  });

  it('with name *, every matching name must be compliant at its latest version', () => {
    const rule = policy('junit', { attestations: [{ type: 'junit' }] });
    const unit = { id: 'u', name: 'unit', type: 'junit', is_compliant: true, created_at: 1 };
    const integrationOld = { id: 'i1', name: 'integration', type: 'junit', is_compliant: true, created_at: 1 };
    const integrationNew = { id: 'i2', name: 'integration', type: 'junit', is_compliant: false, created_at: 2 };
    assert.equal(
      evaluatePolicies(running([trail({ attestations: [unit, integrationOld] })]), [rule])[0].status,
      'COMPLIANT',
    );
    assert.equal(
      evaluatePolicies(running([trail({ attestations: [unit, integrationNew, integrationOld] })]), [rule])[0].status,
      'NON-COMPLIANT',
    );
  });

  it('an attestation rule holds when one applicable trail carries the attestation', () => {
    const rule = policy('pr', { attestations: [{ name: 'pr', type: 'pull_request' }] });
    const pr = { id: 'p', name: 'pr', type: 'pull_request', is_compliant: true, created_at: 1 };
    const [decision] = evaluatePolicies(
      running([trail({ flow_name: 'build', attestations: [pr] }), trail({ flow_name: 'release' })]),
      [rule],
    );
    assert.equal(decision.status, 'COMPLIANT');
    assert.deepEqual(decision.rule_evaluations[0].resolutions, [
      { type: 'rule_satisfied', context: { flow_name: 'build', trail_name: 'abc123' } },
    ]);
  });

  it("an attestation rule's if limits it to matching flows, ignored where none match", () => {
    const rule = policy('prod-only', {
      attestations: [{ name: 'approval', type: 'generic', if: '${{ flow.tags.env == "prod" }}' }],
    });
    const [ignored] = evaluatePolicies(running([trail()]), [rule]);
    assert.deepEqual(ignored.rule_evaluations[0].resolutions, [
      { type: 'rule_not_applicable', context: { flow_name: 'runner', trail_name: 'abc123' } },
    ]);
    assert.equal(ignored.rule_evaluations[0].ignored, true);
    assert.equal(ignored.status, 'COMPLIANT');
    const [applies] = evaluatePolicies(running([trail({ flow_tags: { env: 'prod' } })]), [rule]);
    assert.equal(applies.status, 'NON-COMPLIANT');
    assert.equal(applies.rule_evaluations[0].resolutions[0].type, 'missing_attestation');
    assert.equal(applies.rule_evaluations[0].rule.definition.if, '${{ flow.tags.env == "prod" }}');
  });

  it('fails the evaluation of a rule whose condition does not parse, naming the condition (the service fails evaluation, not upload)', () => {
    const broken = policy('broken', {
      provenance: { required: true, exceptions: [{ if: '${{ flow.nme == "x" }}' }] },
      attestations: [{ name: 'x', type: 'generic', if: '${{ nonsense' }],
    });
    const [decision] = evaluatePolicies(running([]), [broken]);
    assert.equal(decision.status, 'NON-COMPLIANT');
    assert.deepEqual(
      decision.rule_evaluations.map((evaluation) => [evaluation.satisfied, evaluation.ignored]),
      [
        [false, false],
        [false, false],
      ],
    );
    assert.match(
      decision.rule_evaluations[0].error!,
      /^the condition \$\{\{ flow\.nme == "x" \}\} is not a valid expression: /,
    );
    assert.match(decision.rule_evaluations[1].error!, /^the condition \$\{\{ nonsense is not a valid expression: /);
    const reasons = reasonsForIncompliance([decision]);
    assert.equal(reasons.length, 2);
    assert.ok(
      reasons.every((reason) => reason.startsWith("Policy 'broken' (version 1): the condition ")),
      reasons.join('\n'),
    );
    // A provenance that would otherwise hold fails too: the invalid exception cannot be evaluated.
    const [withTrail] = evaluatePolicies(running([trail()]), [broken]);
    assert.equal(withTrail.rule_evaluations[0].satisfied, false);
  });

  it('a missing or null condition holds: an exception without if always excepts, an if: null rule always applies', () => {
    const excepted = policy('excepted', {
      provenance: { required: true, exceptions: [{}] },
      'trail-compliance': { required: true, exceptions: [{ if: null }] },
    });
    const [decision] = evaluatePolicies(running([]), [excepted]);
    assert.equal(decision.status, 'COMPLIANT');
    assert.deepEqual(
      decision.rule_evaluations.map((evaluation) => [evaluation.satisfied, evaluation.ignored]),
      [
        [true, true],
        [true, true],
      ],
    );
    assert.deepEqual(decision.rule_evaluations[0].rule.definition, { required: true, exceptions: [{ if: null }] });
    const always = policy('always', { attestations: [{ name: 'tests', type: 'junit', if: null, for_control: null }] });
    const [missing] = evaluatePolicies(running([trail()]), [always]);
    assert.equal(missing.status, 'NON-COMPLIANT');
    assert.equal(missing.rule_evaluations[0].resolutions[0].type, 'missing_attestation');
    const tests = { id: 't1', name: 'tests', type: 'junit', is_compliant: true, created_at: 5 };
    const [present] = evaluatePolicies(running([trail({ attestations: [tests] })]), [always]);
    assert.equal(present.status, 'COMPLIANT', 'for_control: null asks for no control');
  });

  it('leaves out rules that are not required', () => {
    const [decision] = evaluatePolicies(running([]), [policy('empty', {})]);
    assert.deepEqual(decision, { policy_name: 'empty', policy_version: 1, status: 'COMPLIANT', rule_evaluations: [] });
  });
});

describe('policy aggregation', () => {
  it('artifact: null without policies, else all policies compliant', () => {
    assert.equal(artifactPolicyCompliance([]), null);
    const good = evaluatePolicies(running([trail()]), [provenanceAndTrail]);
    const bad = evaluatePolicies(running([]), [provenanceAndTrail]);
    assert.equal(artifactPolicyCompliance(good), true);
    assert.equal(artifactPolicyCompliance([...good, ...bad]), false);
  });

  it('snapshot: false without policies, else every artifact compliant', () => {
    assert.equal(snapshotCompliance([null, null], 0), false);
    assert.equal(snapshotCompliance([], 0), false);
    assert.equal(snapshotCompliance([true, true], 1), true);
    assert.equal(snapshotCompliance([true, false], 2), false);
    assert.equal(snapshotCompliance([true, null], 1), false);
    assert.equal(snapshotCompliance([], 1), true);
  });

  it('assert artifact: vacuously compliant without policies', () => {
    assert.equal(assertedCompliance([]), true);
    assert.equal(assertedCompliance(evaluatePolicies(running([]), [provenanceAndTrail])), false);
  });

  it('counts artifacts by compliance value', () => {
    assert.deepEqual(artifactComplianceCount([true, false, null, true]), { true: 2, false: 1, null: 1 });
    assert.deepEqual(artifactComplianceCount([]), { true: 0, false: 0, null: 0 });
  });
});
