// Which server the views talk to, from the settings and the local server's state. Pure, so the
// rules are unit-tested without VS Code.

export interface ConnectionSettings {
  /** The spec's `{base_url}`. */
  baseUrl: string;
  /** The spec's `{base_url_us}`. */
  baseUrlUs: string;
  region: 'default' | 'us';
  /** When set, wins over the region. */
  customUrl: string;
  org: string;
}

export interface LocalServerInfo {
  /** The listen URL the server printed, e.g. `http://127.0.0.1:40123`. */
  url: string;
  org: string;
}

export type Connection =
  { kind: 'local' | 'remote'; apiBase: string; org: string } | { kind: 'unconfigured'; problem: string };

/** The org the local server is started with when the settings name none. */
export const DEFAULT_LOCAL_ORG = 'default';

/**
 * The local server wins while it runs, unless the user picked the remote; otherwise the custom
 * URL, else the base URL of the region. The result always ends in `/api/v2`.
 */
export function resolveConnection(
  settings: ConnectionSettings,
  local: LocalServerInfo | undefined,
  preferRemote: boolean,
): Connection {
  if (local && !preferRemote) return { kind: 'local', apiBase: apiBaseOf(local.url), org: local.org };
  const custom = settings.customUrl.trim();
  const url = custom !== '' ? custom : (settings.region === 'us' ? settings.baseUrlUs : settings.baseUrl).trim();
  if (url === '') {
    const setting = settings.region === 'us' ? 'complianceEvidence.baseUrlUs' : 'complianceEvidence.baseUrl';
    return {
      kind: 'unconfigured',
      problem: `No server URL: set ${setting} (or complianceEvidence.customUrl), or start the local server.`,
    };
  }
  if (!isHttpUrl(url)) return { kind: 'unconfigured', problem: `The server URL '${url}' is not an http(s) URL.` };
  const org = settings.org.trim();
  if (org === '') return { kind: 'unconfigured', problem: 'No organization: set complianceEvidence.org.' };
  return { kind: 'remote', apiBase: apiBaseOf(url), org };
}

/** `{base_url}` already includes `/api/v2`; a bare host gets it appended. */
export function apiBaseOf(url: string): string {
  const trimmed = url.trim().replace(/\/+$/, '');
  return /\/api\/v2$/.test(trimmed) ? trimmed : `${trimmed}/api/v2`;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
