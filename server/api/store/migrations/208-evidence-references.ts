import type { Migration } from './index.ts';

// Instances sharing an evidence directory ask, before a file goes, whether a committed
// attestation refers to it (store/evidence.ts): an index lookup instead of a pass over every
// attestation. Partial: most attestations carry no file.
export const migration208: Migration = {
  id: '208-evidence-references',
  sql: `
    CREATE INDEX attestations_by_evidence ON attestations (evidence_sha256) WHERE evidence_sha256 IS NOT NULL;
  `,
};
