import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  artifactState,
  evaluateTrail,
  type TrailArtifact,
  type TrailAttestation,
  type TrailTemplate,
} from '../../shared/compliance/index.ts';

const FP_CLI = 'c'.repeat(64);
const FP_OTHER = 'd'.repeat(64);

/** The template of reference §3.3's worked case and §6 item 12. */
const barAndCli: TrailTemplate = {
  trail: {
    attestations: [{ name: 'bar', type: 'generic' }],
    artifacts: [{ name: 'cli', attestations: [{ name: 'foo', type: 'generic' }] }],
  },
};

let nextId = 0;
function attestation(
  name: string,
  is_compliant: boolean,
  created_at: number,
  extra: Partial<TrailAttestation> = {},
): TrailAttestation {
  return { id: `att-${++nextId}`, name, type: 'generic', is_compliant, created_at, ...extra };
}

function artifact(
  template_reference_name: string,
  fingerprint: string,
  created_at: number,
  id = `art-${++nextId}`,
): TrailArtifact {
  return { id, fingerprint, template_reference_name, created_at };
}

describe('trail evaluation', () => {
  it('reproduces the worked case: nothing reported is INCOMPLETE with every slot MISSING', () => {
    const result = evaluateTrail(barAndCli, [], [], 1700000000.5, 'tpl-1');
    assert.deepEqual(result, {
      compliance_status: {
        status: 'INCOMPLETE',
        is_compliant: false,
        evaluated_at: 1700000000.5,
        flow_template_id: 'tpl-1',
        attestations_statuses: [
          {
            attestation_name: 'bar',
            attestation_type: 'generic',
            attestation_id: null,
            overridden_attestation_id: null,
            status: 'MISSING',
            is_compliant: null,
            unexpected: false,
          },
        ],
        artifacts_statuses: {
          cli: {
            artifact_fingerprint: null,
            artifact_id: null,
            status: 'MISSING',
            is_compliant: false,
            unexpected: false,
            evaluated_at: 1700000000.5,
            attestations_statuses: [
              {
                attestation_name: 'foo',
                attestation_type: 'generic',
                attestation_id: null,
                overridden_attestation_id: null,
                status: 'MISSING',
                is_compliant: null,
                unexpected: false,
              },
            ],
          },
        },
      },
      compliance_state: 'INCOMPLETE',
      is_compliant: false,
    });
  });

  it('is COMPLIANT once every slot is filled with compliant evidence', () => {
    const bar = attestation('bar', true, 10);
    const cli = artifact('cli', FP_CLI, 11, 'artifact-cli');
    const foo = attestation('foo', true, 12, { artifact_fingerprint: FP_CLI });
    const result = evaluateTrail(barAndCli, [foo, bar], [cli], 13);
    assert.equal(result.compliance_state, 'COMPLIANT');
    assert.equal(result.is_compliant, true);
    assert.deepEqual(result.compliance_status.attestations_statuses[0], {
      attestation_name: 'bar',
      attestation_type: 'generic',
      attestation_id: bar.id,
      overridden_attestation_id: null,
      status: 'COMPLETE',
      is_compliant: true,
      unexpected: false,
    });
    const slot = result.compliance_status.artifacts_statuses.cli;
    assert.equal(slot.artifact_fingerprint, FP_CLI);
    assert.equal(slot.artifact_id, 'artifact-cli');
    assert.equal(slot.status, 'COMPLIANT');
    assert.equal(slot.is_compliant, true);
    assert.equal(slot.attestations_statuses[0].attestation_id, foo.id);
  });

  it('a non-compliant attestation makes the trail NON-COMPLIANT even while slots are missing', () => {
    const result = evaluateTrail(barAndCli, [attestation('bar', false, 1)], [], 2);
    assert.equal(result.compliance_state, 'NON-COMPLIANT');
    assert.equal(result.compliance_status.attestations_statuses[0].is_compliant, false);
    assert.equal(result.compliance_status.artifacts_statuses.cli.status, 'MISSING');
  });

  it('an artifact slot is INCOMPLETE with a missing attestation, NON-COMPLIANT before INCOMPLETE', () => {
    const template: TrailTemplate = {
      trail: {
        artifacts: [
          {
            name: 'cli',
            attestations: [
              { name: 'foo', type: 'generic' },
              { name: 'tests', type: 'junit' },
            ],
          },
        ],
      },
    };
    const cli = artifact('cli', FP_CLI, 1);
    const incomplete = evaluateTrail(template, [attestation('foo', true, 2, { target_artifact: 'cli' })], [cli], 3);
    assert.equal(incomplete.compliance_status.artifacts_statuses.cli.status, 'INCOMPLETE');
    assert.equal(incomplete.compliance_state, 'INCOMPLETE');
    assert.deepEqual(
      incomplete.compliance_status.artifacts_statuses.cli.attestations_statuses.map((status) => [
        status.attestation_name,
        status.status,
      ]),
      [
        ['foo', 'COMPLETE'],
        ['tests', 'MISSING'],
      ],
    );
    const failing = evaluateTrail(template, [attestation('foo', false, 2, { target_artifact: 'cli' })], [cli], 3);
    assert.equal(failing.compliance_status.artifacts_statuses.cli.status, 'NON-COMPLIANT');
    assert.equal(failing.compliance_state, 'NON-COMPLIANT');
  });

  it('the latest report of a name wins, whatever the input order', () => {
    const older = attestation('bar', false, 100);
    const newer = attestation('bar', true, 200);
    const fixed = evaluateTrail(
      { trail: { attestations: [{ name: 'bar', type: 'generic' }] } },
      [newer, older],
      [],
      300,
    );
    assert.equal(fixed.compliance_state, 'COMPLIANT');
    assert.equal(fixed.compliance_status.attestations_statuses[0].attestation_id, newer.id);
    const broken = evaluateTrail(
      { trail: { attestations: [{ name: 'bar', type: 'generic' }] } },
      [attestation('bar', true, 1), attestation('bar', false, 2)],
      [],
      3,
    );
    assert.equal(broken.compliance_state, 'NON-COMPLIANT');
    assert.equal(broken.compliance_status.attestations_statuses.length, 1);
  });

  it('an override becomes the effective attestation and points at the one it replaces', () => {
    const template: TrailTemplate = { trail: { attestations: [{ name: 'bar', type: 'generic' }] } };
    const first = attestation('bar', false, 1);
    const second = attestation('bar', false, 2);
    const override = attestation('bar', true, 3, { is_override: true });
    const result = evaluateTrail(template, [first, second, override], [], 4);
    assert.equal(result.compliance_state, 'COMPLIANT');
    assert.deepEqual(result.compliance_status.attestations_statuses, [
      {
        attestation_name: 'bar',
        attestation_type: 'generic',
        attestation_id: override.id,
        overridden_attestation_id: second.id,
        status: 'COMPLETE',
        is_compliant: true,
        unexpected: false,
      },
    ]);
  });

  it('an override without an original still fills the slot, with no overridden id', () => {
    const override = attestation('bar', false, 1, { is_override: true });
    const result = evaluateTrail(barAndCli, [override], [], 2);
    const bar = result.compliance_status.attestations_statuses[0];
    assert.equal(bar.status, 'COMPLETE');
    assert.equal(bar.attestation_id, override.id);
    assert.equal(bar.overridden_attestation_id, null);
    assert.equal(result.compliance_state, 'NON-COMPLIANT');
  });

  it('a report after an override wins again', () => {
    const template: TrailTemplate = { trail: { attestations: [{ name: 'bar', type: 'generic' }] } };
    const later = attestation('bar', false, 3);
    const result = evaluateTrail(
      template,
      [attestation('bar', false, 1), attestation('bar', true, 2, { is_override: true }), later],
      [],
      4,
    );
    assert.equal(result.compliance_status.attestations_statuses[0].attestation_id, later.id);
    assert.equal(result.compliance_status.attestations_statuses[0].overridden_attestation_id, null);
    assert.equal(result.compliance_state, 'NON-COMPLIANT');
  });

  it('matches types: * takes any type, decision takes system:decision, custom types by name', () => {
    const template: TrailTemplate = {
      trail: {
        attestations: [
          { name: 'any', type: '*' },
          { name: 'approval', type: 'decision' },
          { name: 'coverage', type: 'custom:coverage-metrics' },
        ],
      },
    };
    const result = evaluateTrail(
      template,
      [
        attestation('any', true, 1, { type: 'junit' }),
        attestation('approval', true, 2, { type: 'system:decision' }),
        attestation('coverage', true, 3, { type: 'custom:coverage-metrics' }),
      ],
      [],
      4,
    );
    assert.equal(result.compliance_state, 'COMPLIANT');
    assert.deepEqual(
      result.compliance_status.attestations_statuses.map((status) => [
        status.attestation_name,
        status.attestation_type,
        status.status,
        status.unexpected,
      ]),
      [
        ['any', 'junit', 'COMPLETE', false],
        ['approval', 'system:decision', 'COMPLETE', false],
        ['coverage', 'custom:coverage-metrics', 'COMPLETE', false],
      ],
    );
  });

  it('a name reported with the wrong type leaves the slot MISSING and is listed as unexpected', () => {
    const template: TrailTemplate = { trail: { attestations: [{ name: 'tests', type: 'junit' }] } };
    const wrong = attestation('tests', true, 1, { type: 'generic' });
    const result = evaluateTrail(template, [wrong], [], 2);
    assert.equal(result.compliance_state, 'INCOMPLETE');
    assert.deepEqual(
      result.compliance_status.attestations_statuses.map((status) => [
        status.attestation_name,
        status.attestation_type,
        status.status,
        status.unexpected,
        status.attestation_id,
      ]),
      [
        ['tests', 'junit', 'MISSING', false, null],
        ['tests', 'generic', 'COMPLETE', true, wrong.id],
      ],
    );
    const custom = evaluateTrail(
      { trail: { attestations: [{ name: 'c', type: 'custom:a' }] } },
      [attestation('c', true, 1, { type: 'custom:b' })],
      [],
      2,
    );
    assert.equal(custom.compliance_status.attestations_statuses[0].status, 'MISSING');
  });

  it('unexpected attestations never make a trail incomplete, but their non-compliance counts', () => {
    const template: TrailTemplate = { trail: { attestations: [{ name: 'bar', type: 'generic' }] } };
    const bar = attestation('bar', true, 1);
    const extraOld = attestation('extra', false, 2);
    const extraNew = attestation('extra', true, 3);
    const fine = evaluateTrail(template, [bar, extraOld, extraNew], [], 4);
    assert.equal(fine.compliance_state, 'COMPLIANT');
    assert.deepEqual(
      fine.compliance_status.attestations_statuses.map((status) => [
        status.attestation_name,
        status.attestation_id,
        status.unexpected,
      ]),
      [
        ['bar', bar.id, false],
        ['extra', extraNew.id, true],
      ],
    );
    const failing = evaluateTrail(template, [bar, attestation('extra', false, 2)], [], 3);
    assert.equal(failing.compliance_state, 'NON-COMPLIANT');
  });

  it('lists unexpected artifacts with unexpected: true and counts their compliance', () => {
    const stray = artifact('stray', FP_OTHER, 5, 'artifact-stray');
    const bar = attestation('bar', true, 1);
    const foo = attestation('foo', true, 3, { target_artifact: 'cli' });
    const cli = artifact('cli', FP_CLI, 2);
    const result = evaluateTrail(barAndCli, [bar, foo], [cli, stray], 6);
    assert.deepEqual(Object.keys(result.compliance_status.artifacts_statuses), ['cli', 'stray']);
    assert.deepEqual(result.compliance_status.artifacts_statuses.stray, {
      artifact_fingerprint: FP_OTHER,
      artifact_id: 'artifact-stray',
      status: 'COMPLIANT',
      is_compliant: true,
      unexpected: true,
      evaluated_at: 6,
      attestations_statuses: [],
    });
    assert.equal(result.compliance_state, 'COMPLIANT');
    const strayCheck = attestation('check', false, 7, { artifact_fingerprint: FP_OTHER });
    const failing = evaluateTrail(barAndCli, [bar, foo, strayCheck], [cli, stray], 8);
    assert.equal(failing.compliance_status.artifacts_statuses.stray.status, 'NON-COMPLIANT');
    assert.equal(failing.compliance_status.artifacts_statuses.stray.attestations_statuses[0].unexpected, true);
    assert.equal(failing.compliance_state, 'NON-COMPLIANT');
  });

  it('an artifact attestation that its template artifact does not name is unexpected within that artifact', () => {
    const cli = artifact('cli', FP_CLI, 1);
    const result = evaluateTrail(
      barAndCli,
      [
        attestation('bar', true, 1),
        attestation('foo', true, 2, { artifact_fingerprint: FP_CLI }),
        attestation('lint', false, 3, { artifact_fingerprint: FP_CLI }),
      ],
      [cli],
      4,
    );
    const slot = result.compliance_status.artifacts_statuses.cli;
    assert.deepEqual(
      slot.attestations_statuses.map((status) => [status.attestation_name, status.unexpected]),
      [
        ['foo', false],
        ['lint', true],
      ],
    );
    assert.equal(slot.status, 'NON-COMPLIANT');
    assert.equal(result.compliance_state, 'NON-COMPLIANT');
    assert.equal(
      result.compliance_status.attestations_statuses.length,
      1,
      'artifact attestations stay out of the trail level',
    );
  });

  it('treats an empty or absent template as "everything is unexpected"', () => {
    for (const template of [null, undefined, {}, { trail: null }, { trail: {} }] as Array<
      TrailTemplate | null | undefined
    >) {
      const nothing = evaluateTrail(template, [], [], 1);
      assert.equal(nothing.compliance_state, 'COMPLIANT');
      assert.deepEqual(nothing.compliance_status.attestations_statuses, []);
      assert.deepEqual(nothing.compliance_status.artifacts_statuses, {});
    }
    const cli = artifact('artifact', FP_CLI, 1);
    const attested = evaluateTrail({}, [attestation('x', true, 2)], [cli], 3);
    assert.equal(attested.compliance_state, 'COMPLIANT');
    assert.equal(attested.compliance_status.artifacts_statuses.artifact.status, 'COMPLIANT');
    assert.equal(attested.compliance_status.artifacts_statuses.artifact.unexpected, true);
    assert.equal(attested.compliance_status.attestations_statuses[0].unexpected, true);
    assert.equal(evaluateTrail({}, [attestation('x', false, 2)], [], 3).compliance_state, 'NON-COMPLIANT');
  });

  it('holds attestations pre-bound to a template artifact until that artifact is attested', () => {
    const foo = attestation('foo', false, 1, { target_artifact: 'cli' });
    const before = evaluateTrail(barAndCli, [attestation('bar', true, 0), foo], [], 2);
    assert.equal(before.compliance_status.artifacts_statuses.cli.status, 'MISSING');
    assert.equal(before.compliance_status.artifacts_statuses.cli.attestations_statuses[0].status, 'MISSING');
    assert.equal(before.compliance_state, 'INCOMPLETE');
    const after = evaluateTrail(barAndCli, [attestation('bar', true, 0), foo], [artifact('cli', FP_CLI, 3)], 4);
    assert.equal(after.compliance_status.artifacts_statuses.cli.attestations_statuses[0].attestation_id, foo.id);
    assert.equal(after.compliance_state, 'NON-COMPLIANT');
  });

  it('fills a slot with the artifact attested last under its name', () => {
    const old = artifact('cli', FP_OTHER, 1, 'old');
    const current = artifact('cli', FP_CLI, 2, 'current');
    const result = evaluateTrail(barAndCli, [], [current, old], 3);
    assert.equal(result.compliance_status.artifacts_statuses.cli.artifact_id, 'current');
    assert.equal(result.compliance_status.artifacts_statuses.cli.status, 'INCOMPLETE');
  });

  it('binds a fingerprint attested under two template names to both slots', () => {
    const template: TrailTemplate = {
      trail: {
        artifacts: [
          { name: 'a', attestations: [{ name: 'scan', type: 'scan' }] },
          { name: 'b', attestations: [{ name: 'scan', type: 'scan' }] },
        ],
      },
    };
    const result = evaluateTrail(
      template,
      [attestation('scan', true, 3, { type: 'scan', artifact_fingerprint: FP_CLI })],
      [artifact('a', FP_CLI, 1), artifact('b', FP_CLI, 2)],
      4,
    );
    assert.equal(result.compliance_status.artifacts_statuses.a.status, 'COMPLIANT');
    assert.equal(result.compliance_status.artifacts_statuses.b.status, 'COMPLIANT');
    assert.equal(result.compliance_state, 'COMPLIANT');
  });
});

describe('trail evaluation invariants (property)', () => {
  const names = fc.constantFrom('a', 'b', 'c');
  const types = fc.constantFrom('generic', 'junit', 'system:decision', 'custom:x');
  const slotTypes = fc.constantFrom('generic', 'junit', 'decision', 'custom:x', '*');
  const slots = fc.uniqueArray(fc.record({ name: names, type: slotTypes }), {
    selector: (slot) => slot.name,
    maxLength: 3,
  });
  const template = fc.record({
    trail: fc.record({
      attestations: slots,
      artifacts: fc.uniqueArray(fc.record({ name: fc.constantFrom('x', 'y'), attestations: slots }), {
        selector: (slot) => slot.name,
        maxLength: 2,
      }),
    }),
  });
  const fingerprints = fc.constantFrom(FP_CLI, FP_OTHER);
  const artifacts = fc.array(
    fc.record({
      id: fc.string(),
      fingerprint: fingerprints,
      template_reference_name: fc.constantFrom('x', 'y', 'z'),
      created_at: fc.nat(20),
    }),
    {
      maxLength: 3,
    },
  );
  const attestations = fc.array(
    fc.record({
      id: fc.string(),
      name: names,
      type: types,
      is_compliant: fc.boolean(),
      created_at: fc.nat(20),
      target_artifact: fc.option(fc.constantFrom('x', 'y', 'z'), { nil: undefined }),
      artifact_fingerprint: fc.option(fingerprints, { nil: undefined }),
      is_override: fc.boolean(),
    }),
    { maxLength: 8 },
  );

  it('the verdict follows the statuses it reports, and every template slot is listed once', () => {
    fc.assert(
      fc.property(template, attestations, artifacts, (tpl, reported, attested) => {
        const {
          compliance_status: status,
          compliance_state: state,
          is_compliant,
        } = evaluateTrail(tpl, reported, attested, 1);
        const slotsOfArtifacts = Object.values(status.artifacts_statuses);
        const entries = [
          ...status.attestations_statuses,
          ...slotsOfArtifacts.flatMap((slot) => slot.attestations_statuses),
        ];
        const anyFailing = entries.some((entry) => entry.is_compliant === false);
        const anyMissing =
          entries.some((entry) => entry.status === 'MISSING') ||
          slotsOfArtifacts.some((slot) => slot.status === 'MISSING');
        assert.equal(state, anyFailing ? 'NON-COMPLIANT' : anyMissing ? 'INCOMPLETE' : 'COMPLIANT');
        assert.equal(status.status, state);
        assert.equal(is_compliant, state === 'COMPLIANT');
        const expected = status.attestations_statuses
          .filter((entry) => !entry.unexpected)
          .map((entry) => entry.attestation_name);
        assert.deepEqual(
          expected,
          tpl.trail.attestations.map((slot) => slot.name),
        );
        for (const slot of tpl.trail.artifacts) assert.equal(status.artifacts_statuses[slot.name]?.unexpected, false);
        for (const entry of entries) assert.equal(entry.status === 'MISSING', entry.attestation_id === null);
      }),
      { seed: 3303, numRuns: 1500 },
    );
  });
});

describe('artifact state', () => {
  it('is its trail verdict, the worst of several, INCOMPLETE without a trail', () => {
    assert.equal(artifactState(['COMPLIANT']), 'COMPLIANT');
    assert.equal(artifactState(['COMPLIANT', 'INCOMPLETE']), 'INCOMPLETE');
    assert.equal(artifactState(['INCOMPLETE', 'NON-COMPLIANT', 'COMPLIANT']), 'NON-COMPLIANT');
    assert.equal(artifactState([]), 'INCOMPLETE');
  });
});
