// The wire types: what each answer of the contract is, as TypeScript derives it from the schema
// (json-schema-to-ts). The server's views return these, so a renderer that drifts from the
// contract does not compile; the extension reads the same answers through client/api/types.ts.
import type { FromSchema } from 'json-schema-to-ts';
import type { defaultOrg, repo } from './accounts.ts';

export type Repo = FromSchema<typeof repo>;
export type DefaultOrg = FromSchema<typeof defaultOrg>;
