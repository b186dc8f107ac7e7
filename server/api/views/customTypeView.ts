// Custom attestation types (reference §2.15) and the built-in system types (§2.18) as the API
// answers them.
import type { CustomAttestationType } from '../../../shared/contract/types.ts';
import type { CustomType } from '../store/customTypes.ts';

/**
 * One version read by number: the reference leaves out the creation fields, and the description
 * when it has none (the contract's type, which the list and the latest read answer, requires them).
 */
export type CustomTypeVersion = Omit<CustomAttestationType, 'created_by' | 'created_at' | 'last_modified_at'>;

function fieldsOf(type: CustomType) {
  return {
    name: type.name,
    version: type.version,
    schema: type.schema,
    evaluator: type.evaluator,
    summary: type.summary ?? [],
  };
}

/** The type (its latest version, or one just created), as lists and reads by name answer it. */
export function customTypeView(type: CustomType): CustomAttestationType {
  return {
    ...fieldsOf(type),
    description: type.description,
    created_by: type.createdBy,
    created_at: type.createdAt,
    last_modified_at: type.createdAt,
  };
}

export function customTypeVersionView(type: CustomType): CustomTypeVersion {
  return type.description === null ? fieldsOf(type) : { ...fieldsOf(type), description: type.description };
}
