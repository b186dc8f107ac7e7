// What a template change would do to one trail: its verdict now (under the template it was begun
// with) and under the edited template, and each slot whose status differs. Pure: two evaluations
// of the same stored rows in, the difference out.
import type { AttestationStatus, ComplianceStatus } from './trail.ts';
import type { ComplianceState } from './status.ts';

/** One slot whose status differs; `null` when the slot is absent on that side (not in the template and not reported). */
export interface SlotChange {
  /** The template artifact the slot belongs to; null for the trail's own attestation slots. */
  artifact: string | null;
  /** The attestation slot; null for the artifact slot itself. */
  attestation: string | null;
  before: string | null;
  after: string | null;
}

export interface TrailImpact {
  before: ComplianceState;
  after: ComplianceState;
  changed_slots: SlotChange[];
}

/** `MISSING`, `COMPLIANT` or `NON-COMPLIANT`, marked when the reported item is outside the template. */
function attestationSlotState(status: AttestationStatus): string {
  const state = status.status === 'MISSING' ? 'MISSING' : status.is_compliant === false ? 'NON-COMPLIANT' : 'COMPLIANT';
  return status.unexpected ? `${state} (unexpected)` : state;
}

/** Every slot of an evaluation by a key that cannot collide across scopes. */
function slotStates(
  status: ComplianceStatus,
): Map<string, { artifact: string | null; attestation: string | null; state: string }> {
  const slots = new Map<string, { artifact: string | null; attestation: string | null; state: string }>();
  for (const attestation of status.attestations_statuses) {
    slots.set(JSON.stringify([null, attestation.attestation_name]), {
      artifact: null,
      attestation: attestation.attestation_name,
      state: attestationSlotState(attestation),
    });
  }
  for (const [name, artifact] of Object.entries(status.artifacts_statuses)) {
    slots.set(JSON.stringify([name, null]), {
      artifact: name,
      attestation: null,
      state: artifact.unexpected ? `${artifact.status} (unexpected)` : artifact.status,
    });
    for (const attestation of artifact.attestations_statuses) {
      slots.set(JSON.stringify([name, attestation.attestation_name]), {
        artifact: name,
        attestation: attestation.attestation_name,
        state: attestationSlotState(attestation),
      });
    }
  }
  return slots;
}

/** The trail's verdict before and after, and the slots that change, in the order the edited template lists them. */
export function trailImpact(before: ComplianceStatus, after: ComplianceStatus): TrailImpact {
  const was = slotStates(before);
  const will = slotStates(after);
  const changed: SlotChange[] = [];
  for (const [key, slot] of will) {
    const previous = was.get(key)?.state ?? null;
    if (previous !== slot.state)
      changed.push({ artifact: slot.artifact, attestation: slot.attestation, before: previous, after: slot.state });
  }
  for (const [key, slot] of was) {
    if (!will.has(key))
      changed.push({ artifact: slot.artifact, attestation: slot.attestation, before: slot.state, after: null });
  }
  return { before: before.status, after: after.status, changed_slots: changed };
}
