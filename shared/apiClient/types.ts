// The API's records as the extension reads them, derived from the shared wire contract
// (shared/contract) rather than restated. The contract says what our server always sends; the
// extension also talks to the hosted service, whose records the spec does not promise field by field
// ("which fields are always present: not shown"), so every field is optional here but the name a
// view cannot do without: a view must survive a sparse record.
import type * as wire from '../contract/types.ts';

/** The fields that name a record, kept where the contract requires them: a view cannot show a record without its name. */
type Identity = 'name' | 'attestation_name' | 'fingerprint' | 'index';
/** The keys a record names itself, without an open record's `[key: string]` signature. */
type KnownKeys<T> = keyof { [K in keyof T as string extends K ? never : K]: 0 };
/** Every other field optional, all the way down; extra keys of an open record are not read. */
type Sparse<T> = T extends readonly (infer Item)[]
  ? Sparse<Item>[]
  : T extends object
    ? [KnownKeys<T>] extends [never]
      ? { [key: string]: Sparse<T[keyof T]> }
      : { [K in KnownKeys<T> as K extends Identity ? K : never]: Sparse<T[K]> } & {
          [K in KnownKeys<T> as K extends Identity ? never : K]?: Sparse<T[K]>;
        }
    : T;
/** A sparse record that also keeps the fields named. */
type SparseWith<T, Kept extends keyof T> = Sparse<T> & Pick<T, Kept>;

export type ComplianceState = 'COMPLIANT' | 'NON-COMPLIANT' | 'INCOMPLETE' | 'MISSING';

export type Pagination = wire.Pagination;

export interface Page<T> {
  data: T[];
  pagination: Pagination;
}

export type Flow = SparseWith<wire.Flow, 'name'>;
export type AttestationStatus = SparseWith<wire.AttestationStatus, 'attestation_name'>;
export type ArtifactStatus = Sparse<wire.ArtifactStatus>;
export type TemplateAttestation = Sparse<wire.TemplateAttestation>;
export type Trail = SparseWith<wire.Trail, 'name'>;
export type TrailTemplate = NonNullable<Trail['template']>;
export type Environment = SparseWith<wire.Environment, 'name' | 'type'>;
export type SnapshotListItem = SparseWith<wire.SnapshotSummary, 'index' | 'from' | 'to' | 'compliant'>;
export type SnapshotArtifact = SparseWith<wire.SnapshotArtifact, 'name'>;
export type Snapshot = SparseWith<wire.Snapshot, 'index'>;
export type SearchArtifact = SparseWith<wire.SearchArtifact, 'fingerprint'>;
export type SearchResult = Sparse<wire.SearchResult> & { artifacts: SearchArtifact[] };

/** A file to send as a multipart file part. */
export interface FilePart {
  name: string;
  bytes: Uint8Array;
  contentType?: string;
}

/** 201 means the resource was created, 200 that an existing one was updated (reference §1.3). */
export interface WriteResult {
  created: boolean;
}
