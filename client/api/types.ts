// The parts of the API's responses the extension reads (spec api-v2 and the service reference).
// Fields are optional where the spec does not promise them: a view must survive a sparse record.

export type ComplianceState = 'COMPLIANT' | 'NON-COMPLIANT' | 'INCOMPLETE' | 'MISSING';

export interface Pagination {
  total: number;
  page: number;
  per_page: number;
  page_count: number;
}

export interface Page<T> {
  data: T[];
  pagination: Pagination;
}

export interface Flow {
  name: string;
  description?: string;
  template?: string;
  tags?: Record<string, string>;
  latest_activity_at?: number | null;
  latest_state?: string | null;
  html_url?: string;
}

export interface AttestationStatus {
  attestation_name: string;
  attestation_type?: string;
  attestation_id?: string | null;
  overridden_attestation_id?: string | null;
  status?: string;
  is_compliant?: boolean | null;
  unexpected?: boolean;
}

export interface ArtifactStatus {
  artifact_fingerprint?: string | null;
  artifact_id?: string | null;
  status?: string;
  is_compliant?: boolean | null;
  unexpected?: boolean;
  attestations_statuses?: AttestationStatus[];
}

export interface TemplateAttestation {
  name: string;
  type: string;
}

export interface TrailTemplate {
  version?: number;
  trail?: {
    attestations?: TemplateAttestation[];
    artifacts?: { name: string; attestations?: TemplateAttestation[] }[];
  };
  content?: string;
}

export interface Trail {
  name: string;
  description?: string;
  created_at?: number;
  last_modified_at?: number;
  compliance_state?: string;
  is_compliant?: boolean;
  compliance_status?: {
    status?: string;
    is_compliant?: boolean;
    attestations_statuses?: AttestationStatus[];
    artifacts_statuses?: Record<string, ArtifactStatus>;
  };
  template?: TrailTemplate;
  flow?: { name: string; tags?: Record<string, string> };
  git_commit_info?: { sha1?: string; message?: string; author?: string; branch?: string } | null;
  html_url?: string;
}

export interface Environment {
  name: string;
  type: string;
  description?: string;
  state?: boolean | null;
  last_reported_at?: number | null;
  policies?: string[];
  html_url?: string;
}

export interface SnapshotListItem {
  index: number;
  from: number;
  to: number;
  compliant: boolean | null;
  duration?: number;
}

export interface SnapshotArtifact {
  name: string;
  fingerprint?: string;
  compliant?: boolean | null;
  reasons_for_incompliance?: string[];
  annotation?: { type?: string; was?: number; now?: number };
  creationTimestamp?: number[];
  flow_name?: string | null;
  git_commit?: string | null;
  commit_url?: string | null;
  flows?: { flow_name?: string; trail_name?: string; git_commit?: string }[];
  html_url?: string | null;
}

export interface Snapshot {
  index: number;
  timestamp?: number;
  type?: string;
  compliant?: boolean | null;
  is_latest?: boolean;
  html_url?: string;
  artifacts?: SnapshotArtifact[];
}

export interface SearchArtifact {
  fingerprint: string;
  name?: string;
  flow?: string;
  trail?: string;
  git_commit?: string;
  compliance_state?: string;
  running_in?: string[];
  exited_from?: string[];
  html_url?: string;
}

export interface SearchResult {
  artifacts: SearchArtifact[];
  resolved_to?: { type?: string; full_match?: string };
}

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
