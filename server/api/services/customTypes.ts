// Custom attestation types (reference §2.15): versions by name, each a JSON Schema for the data and
// jq rules for compliance, checked when created; and the built-in system types (§2.18).
import type { CustomAttestationType, SystemAttestationType } from '../../../shared/contract/types.ts';
import type { BodyOf } from '../../../shared/schemas/index.ts';
import { nowSeconds } from '../clock.ts';
import { invalid, withInput } from '../errors.ts';
import { customTypeNotFound, customTypeVersionNotFound } from '../notFound.ts';
import { schemaProblem } from '../rules/customTypeSchemas.ts';
import { ruleErrors, summaryErrors } from '../rules/customTypes.ts';
import type { CustomType } from '../store/customTypes.ts';
import type { Org } from '../store/orgs.ts';
import { customTypeVersionView, customTypeView, type CustomTypeVersion } from '../views/customTypeView.ts';
import type { ServiceDeps } from './index.ts';

/** The types an attestation of type `system` names in type_name. */
const SYSTEM_TYPES: SystemAttestationType[] = [
  {
    name: 'decision',
    description:
      "A decision on a control: attest it with type_name 'decision' and the control's identifier in control.",
    attestation_type: 'system:decision',
  },
];

/** What a type created without `type_schema` holds its data to: any JSON object (reference §8.1). */
const ANY_OBJECT = { type: 'object' };

/** The type's JSON Schema from its text (any object without one); 400 naming `type_schema` when not JSON or not a schema. */
function schemaOf(schemaText: string | undefined): Record<string, unknown> {
  if (schemaText === undefined) return ANY_OBJECT;
  let schema: unknown;
  try {
    schema = JSON.parse(schemaText);
  } catch (error) {
    throw invalid({
      type_schema: withInput(
        `Invalid JSON: ${error instanceof Error ? error.message : String(error)}`,
        schemaText.slice(0, 200),
      ),
    });
  }
  const problem = schemaProblem(schema, schemaText);
  if (problem !== undefined) throw invalid({ type_schema: withInput(problem, schemaText.slice(0, 200)) });
  return schema as Record<string, unknown>;
}

export function customTypeService({ store }: Pick<ServiceDeps, 'store'>) {
  return {
    /** A new version of the type (the first for a new name), once its schema, rules and summary check. */
    async created(
      org: Org,
      input: BodyOf<'custom-type-create'>,
      schemaText: string | undefined,
      createdBy: string,
    ): Promise<CustomAttestationType> {
      const schema = schemaOf(schemaText);
      const badRules = { ...ruleErrors(input.evaluator?.rules ?? []), ...summaryErrors(input.summary ?? []) };
      if (Object.keys(badRules).length > 0) throw invalid(badRules);
      return await store.transaction(async () => {
        const created = await store.customTypes.createVersion({
          orgId: org.id,
          name: input.name,
          description: input.description ?? null,
          schema,
          evaluator: input.evaluator ?? null,
          summary: input.summary ?? null,
          createdBy,
          createdAt: nowSeconds(),
        });
        return customTypeView(created, await store.customTypes.versions(org.id, input.name));
      });
    },

    /** The org's types (the archived ones too when asked), each its latest version with every version of it. */
    async listOf(org: Org, archivedToo: boolean): Promise<CustomAttestationType[]> {
      const byName = new Map<string, CustomType[]>();
      for (const version of await store.customTypes.allVersions(org.id, archivedToo))
        byName.set(version.name, [...(byName.get(version.name) ?? []), version]);
      return [...byName.values()].map((versions) => customTypeView(versions[versions.length - 1], versions));
    },

    /**
     * The type's latest version, or the version asked for, with every version of it; an archived
     * type too (reference §8.2 item 6). 404 for a name or a version that does not exist.
     */
    async named(
      org: Org,
      name: string,
      version: number | undefined,
    ): Promise<CustomAttestationType | CustomTypeVersion> {
      const versions = await store.customTypes.versions(org.id, name);
      if (versions.length === 0) throw customTypeNotFound(org.name, name);
      if (version === undefined) return customTypeView(versions[versions.length - 1], versions);
      const versioned = versions.find((candidate) => candidate.version === version);
      if (versioned === undefined) throw customTypeVersionNotFound(name, version);
      return customTypeVersionView(versioned, versions);
    },

    async archive(org: Org, name: string): Promise<void> {
      await store.transaction(async () => {
        if ((await store.customTypes.latest(org.id, name)) === undefined) throw customTypeNotFound(org.name, name);
        await store.customTypes.archive(org.id, name, nowSeconds());
      });
    },

    systemTypes(): SystemAttestationType[] {
      return SYSTEM_TYPES;
    },
  };
}
