// What `cev serve` prints after its ready line, so a first start says where to go next: the web
// UI, the API reference, the README's quickstart, and how the VS Code extension reaches this server.
import type { ServeOptions } from '../api/options.ts';

/** Where the key comes from, in the words of the flags the server was started with. */
function keyHintOf(options: ServeOptions): string {
  if (options.apiKeyFrom !== undefined) return `the key given with ${options.apiKeyFrom}`;
  if (options.dataDir === undefined) return 'the admin API key printed above';
  return `the admin API key (printed on first start; kept in ${options.dataDir}/admin-key)`;
}

export function nextStepsOf(options: ServeOptions, url: string): string {
  const base = options.publicUrl ?? url;
  const orgs = options.orgs.map((org) => org.name);
  const org =
    orgs.length === 1 ? `complianceEvidence.org to ${orgs[0]}` : `complianceEvidence.org to one of ${orgs.join(', ')}`;
  return [
    '',
    'Next steps:',
    `  Web UI         ${base}/  (sign in with the key)`,
    `  API reference  ${base}/api/v2/doc/  (Authorize with the key, then "Try it out")`,
    '  Quickstart     README.md, section "Quickstart": copy-paste curl requests from a flow template to the audit log',
    `  VS Code        set complianceEvidence.customUrl to ${base} and ${org},`,
    '                 then run "Compliance Evidence: Sign In" and paste the key',
    `  The key: ${keyHintOf(options)}.`,
  ].join('\n');
}
