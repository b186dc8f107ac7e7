// The normalized environment policy: a checked policy document with every default filled in,
// in the snake-case form the service stores and shows as a snapshot's `policy_dump`
// (reference §4.3). Policy evaluation reads this form only. A missing or null condition is no
// condition: an attestation rule then always applies and an exception always excepts, the
// meaning of the published schema's default for `if`.
import { objectOrEmpty } from '../text/values.ts';

export interface PolicyCondition {
  /** The condition as written, `${{ ... }}`. */
  text: string;
}

export interface PolicyException {
  /** Null when the exception has no condition (absent or `if: null`): it always applies. */
  if_condition: PolicyCondition | null;
}

export interface PolicyRequirement {
  required: boolean;
  exceptions: PolicyException[];
}

export interface PolicyAttestationRule {
  /** `*` for any name. */
  name: string;
  /** `*` for any type; `decision` matches stored `system:decision`. */
  type: string;
  /** The rule applies only when this holds; null means always. */
  if_condition: PolicyCondition | null;
  must_be_compliant: boolean;
  /** For `decision` rules: the control the decision must be for. */
  for_control: string | null;
}

export interface PolicyModel {
  /** The document's `_schema` URL. */
  schema_version: string;
  artifacts: {
    provenance: PolicyRequirement;
    trail_compliance: PolicyRequirement;
    attestations: PolicyAttestationRule[];
  };
}

/**
 * The model of a policy value that passed `checkPolicy`. Total on any input, so a value that
 * skipped the check still yields a model (missing parts take their defaults).
 */
export function normalizePolicy(value: unknown): PolicyModel {
  const document = objectOrEmpty(value);
  const artifacts = objectOrEmpty(document.artifacts);
  const rules = Array.isArray(artifacts.attestations) ? artifacts.attestations : [];
  return {
    schema_version: typeof document._schema === 'string' ? document._schema : '',
    artifacts: {
      provenance: requirement(artifacts.provenance),
      trail_compliance: requirement(artifacts['trail-compliance']),
      attestations: rules.map(attestationRule),
    },
  };
}

function requirement(value: unknown): PolicyRequirement {
  const entry = objectOrEmpty(value);
  const exceptions = Array.isArray(entry.exceptions) ? entry.exceptions : [];
  return {
    required: entry.required === true,
    exceptions: exceptions.map((exception) => {
      const condition = objectOrEmpty(exception).if;
      return { if_condition: typeof condition === 'string' ? { text: condition } : null };
    }),
  };
}

function attestationRule(value: unknown): PolicyAttestationRule {
  const entry = objectOrEmpty(value);
  return {
    name: typeof entry.name === 'string' ? entry.name : '*',
    type: typeof entry.type === 'string' ? entry.type : '*',
    if_condition: typeof entry.if === 'string' ? { text: entry.if } : null,
    must_be_compliant: entry.must_be_compliant !== false,
    for_control: typeof entry.for_control === 'string' ? entry.for_control : null,
  };
}
