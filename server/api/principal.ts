// Who is asking: the principal a presented API key stands for, and the roles of reference §1.10.

export type Role = 'admin' | 'member' | 'snapshotter' | 'reader';

export interface Principal {
  /** Stable and unique across the server, whatever the names (apiKeys.ts): what its settings are kept under. */
  id: string;
  /** Shown as created_by / reported_by. */
  name: string;
  role: Role;
  orgs: ReadonlySet<string> | 'all';
}
