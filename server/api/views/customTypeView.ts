// Custom attestation types (reference §2.15) and the built-in system types (§2.18) as the API
// answers them.
import type { CustomAttestationType } from '../../../shared/contract/types.ts';
import type { CustomType } from '../store/customTypes.ts';

/**
 * One version read by number: the reference leaves out the creation fields, and the description
 * when it has none (the contract's type, which the list and the latest read answer, requires them).
 */
export type CustomTypeVersion = Omit<CustomAttestationType, 'created_by' | 'created_at' | 'last_modified_at'>;

/** One entry of `versions` (reference §8.2 item 5): what the version held, and who made it when. */
function versionEntryOf(type: CustomType) {
  return {
    version: type.version,
    type_schema: type.schema,
    jq_rules: type.evaluator?.rules ?? [],
    summary: type.summary ?? [],
    created_at: type.createdAt,
    created_by: type.createdBy,
  };
}

/** `type` (one version) with every version of its name, oldest first: clients count them for the latest. */
function fieldsOf(type: CustomType, versions: readonly CustomType[]) {
  return {
    name: type.name,
    version: type.version,
    schema: type.schema,
    evaluator: type.evaluator,
    summary: type.summary ?? [],
    archived: type.archivedAt !== null,
    versions: versions.map(versionEntryOf),
  };
}

/** The type (its latest version, or one just created), as lists and reads by name answer it. */
export function customTypeView(type: CustomType, versions: readonly CustomType[]): CustomAttestationType {
  return {
    ...fieldsOf(type, versions),
    description: type.description,
    created_by: type.createdBy,
    created_at: type.createdAt,
    last_modified_at: type.createdAt,
  };
}

export function customTypeVersionView(type: CustomType, versions: readonly CustomType[]): CustomTypeVersion {
  const fields = fieldsOf(type, versions);
  return type.description === null ? fields : { ...fields, description: type.description };
}
