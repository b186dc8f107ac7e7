// Why a trail's attestations have their verdicts, in words, for the trail page: each non-compliant
// one's failing condition by the rule of its type (shared/compliance/reasons.ts; a custom type's
// rules as of the version it was checked with) and each override's own reason. Read from the
// trail's attestations in one statement and each custom type version in use once.
import { nonComplianceReasons } from '../../../shared/compliance/index.ts';
import type { AttestationSummary } from '../../../shared/display/trail.ts';
import type { Attestation } from '../store/attestations.ts';
import type { CustomType } from '../store/customTypes.ts';
import type { Store } from '../store/index.ts';
import type { Org } from '../store/orgs.ts';
import { flowOr404, trailOr404 } from './lookups.ts';

/** The custom type an attestation was checked with: the version its type_name names, else the latest then. */
async function typeOf(store: Store, org: Org, attestation: Attestation): Promise<CustomType | undefined> {
  const given = attestation.body.type_name;
  const typeName = typeof given === 'string' ? given : attestation.type.slice('custom:'.length);
  const versioned = /^(.+)@v(\d+)$/.exec(typeName);
  return versioned === null
    ? await store.customTypes.versionAt(org.id, typeName, attestation.createdAt)
    : await store.customTypes.version(org.id, versioned[1], Number(versioned[2]));
}

/** The attestations `ids` of a trail (the ones its compliance status names) with why each has its verdict. */
export async function attestationSummariesOf(
  store: Store,
  org: Org,
  flowName: string,
  trailName: string,
  ids: ReadonlySet<string>,
): Promise<AttestationSummary[]> {
  const trail = await trailOr404(store, org, await flowOr404(store, org, flowName), trailName);
  const named = (await store.attestations.inTrail(trail.id)).filter((attestation) => ids.has(attestation.id));
  const types = new Map<string, Promise<CustomType | undefined>>();
  const rulesOf = async (attestation: Attestation): Promise<readonly string[] | undefined> => {
    if (!attestation.type.startsWith('custom:')) return undefined;
    const key = `${JSON.stringify(attestation.body.type_name)} ${attestation.createdAt}`;
    if (!types.has(key)) types.set(key, typeOf(store, org, attestation));
    return (await types.get(key))?.evaluator?.rules ?? [];
  };
  return await Promise.all(
    named.map(async (attestation): Promise<AttestationSummary> => {
      const summary: AttestationSummary = {
        attestation_id: attestation.id,
        attestation_name: attestation.name,
        attestation_type: attestation.type,
        is_compliant: attestation.isCompliant,
      };
      if (attestation.isOverride)
        return typeof attestation.body.reason === 'string'
          ? { ...summary, override_reason: attestation.body.reason }
          : summary;
      if (attestation.isCompliant) return summary;
      return {
        ...summary,
        reasons: nonComplianceReasons(attestation.type, attestation.body, { rules: await rulesOf(attestation) }),
      };
    }),
  );
}
