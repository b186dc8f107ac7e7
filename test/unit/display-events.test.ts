// A trail's events in words: each type the server records told as what happened, what it happened
// to (linked to its page) and the rest as a sentence; a type it does not know still reads, field by field.
import assert from 'node:assert/strict';
import { eventDisplay } from '../../shared/display/events.ts';

const FP = 'a1fece484e17cab7f7c442b1490fda5419fbc81a48d62f0cc4e6c63bd9a77ad5';
const place = { flow: 'backend', trail: 'release-42' };
const read = (event: Record<string, unknown>) => {
  const { title, subject, details } = eventDisplay({ timestamp: 1_700_000_000, ...event }, place);
  return { title, subject, details };
};

describe('trail events in words', () => {
  it('tells the trail reported and updated', () => {
    assert.deepEqual(read({ type: 'trail_reported' }), { title: 'Trail reported', subject: null, details: '' });
    assert.equal(read({ type: 'trail_updated' }).title, 'Trail updated');
    assert.equal(eventDisplay({ type: 'trail_reported', timestamp: 1 }, place).time, '1970-01-01T00:00:01.000Z');
  });

  it('names the artifact reported, linked to its page in this trail', () => {
    assert.deepEqual(
      read({
        type: 'artifact_creation_reported',
        artifact_name: 'registry.test/acme/api:42',
        template_reference_name: 'api',
        artifact_fingerprint: FP,
      }),
      {
        title: 'Artifact reported',
        subject: {
          label: 'registry.test/acme/api:42',
          ref: { kind: 'artifact', flow: 'backend', fingerprint: FP, trail: 'release-42' },
        },
        details: 'as api, fingerprint a1fece484e17…',
      },
    );
  });

  it('names the attestation reported and its verdict, linked to it, and the artifact it is of', () => {
    const common = { attestation_type: 'junit', template_reference_name: 'unit-tests', attestation_id: 'id-1' };
    assert.deepEqual(
      read({ type: 'artifact_attestation_reported', ...common, is_compliant: false, target_artifact: 'api' }),
      {
        title: 'Attestation reported',
        subject: {
          label: 'unit-tests',
          ref: { kind: 'attestation', flow: 'backend', trail: 'release-42', attestationId: 'id-1' },
        },
        details: 'junit attestation of artifact api, non-compliant',
      },
    );
    assert.equal(
      read({ type: 'trail_attestation_reported', ...common, is_compliant: true }).details,
      'junit attestation, compliant',
    );
  });

  it('says where the artifact started and stopped running, linked to the snapshot', () => {
    const placed = {
      template_reference_name: 'api',
      artifact_fingerprint: FP,
      environment_name: 'production',
      snapshot_index: 2,
    };
    assert.deepEqual(read({ type: 'artifact_started_running', ...placed }), {
      title: 'Started running in production',
      subject: { label: 'production#2', ref: { kind: 'snapshot', environment: 'production', index: 2 } },
      details: 'artifact api, fingerprint a1fece484e17…',
    });
    assert.equal(read({ type: 'artifact_stopped_running', ...placed }).title, 'Stopped running in production');
  });

  it('reads a type it does not know as words, its fields as name: value pairs, never as JSON text alone', () => {
    assert.deepEqual(read({ type: 'compliance_changed', user: 'ci', new_state: { ok: true } }), {
      title: 'Compliance changed',
      subject: null,
      details: 'user: ci, new state: {"ok":true}',
    });
    assert.equal(read({}).title, 'Event');
  });
});
