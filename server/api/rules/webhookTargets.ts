// Where a webhook may be sent. A webhook makes the server itself send a request, from inside its
// network: aimed at loopback, a private or link-local address (the cloud metadata service at
// 169.254.169.254 among them), it reaches what the network keeps from the outside. So only public
// unicast addresses are targets, unless the operator allows the others (`--allow-private-webhooks`).
// A host is read as WHATWG URL parsing reads it (the delivery's HTTP client parses it so too):
// `0x7f000001`, `2130706433`, `127.1` and `0177.0.0.1` are all 127.0.0.1 by then, and an IPv6
// address that carries an IPv4 one (`::ffff:127.0.0.1`) is judged by the IPv4 address.
import ipaddr from 'ipaddr.js';

/** The flag that lets webhooks go to any address. */
export const ALLOW_PRIVATE_FLAG = '--allow-private-webhooks';

/** What ipaddr.js calls each kind of address, as a message names it. */
const KINDS: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private address (RFC 1918)',
  uniqueLocal: 'a private address (unique local, fc00::/7)',
  linkLocal: 'a link-local address (where cloud metadata services answer)',
  carrierGradeNat: 'a shared address (carrier-grade NAT, 100.64.0.0/10)',
  unspecified: 'the unspecified address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
};

/**
 * Global unicast IPv6 (RFC 4291): ipaddr.js calls every address it has no name for `unicast`,
 * the IPv4-compatible `::127.0.0.1` included.
 */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/** What kind of address `address` (an IP address, IPv6 without brackets) is when it may not be a target; undefined when it may. */
export function forbiddenAddressKind(address: string): string | undefined {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    // process(): an IPv4-mapped IPv6 address comes back as its IPv4 address.
    parsed = ipaddr.process(address);
  } catch {
    return 'not an address';
  }
  const range = parsed.range();
  if (range !== 'unicast') return KINDS[range] ?? `a reserved address (${range})`;
  if (parsed.kind() === 'ipv6' && !parsed.match(GLOBAL_UNICAST_V6)) return 'a reserved address';
  return undefined;
}

/** A URL's hostname as an address or a name: without IPv6 brackets and without a final dot. */
function bareHost(hostname: string): string {
  const unbracketed = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return unbracketed.endsWith('.') ? unbracketed.slice(0, -1) : unbracketed;
}

/**
 * What kind of host a URL's hostname (as `new URL()` gives it) names when it is known without
 * asking DNS to be no target: an IP address of a forbidden kind, or `localhost` (RFC 6761: always
 * loopback). Undefined for any other name, which the delivery checks once resolved.
 */
export function forbiddenHostKind(hostname: string): string | undefined {
  const host = bareHost(hostname).toLowerCase();
  if (ipaddr.isValid(host)) return forbiddenAddressKind(host);
  if (host === 'localhost' || host.endsWith('.localhost')) return 'a loopback name';
  return undefined;
}

/** The message of a refused target: the host (and the address it resolved to), what it is, and the flag that would allow it. */
export function refusedTargetMessage(host: string, kind: string, resolvedTo?: string): string {
  const what = resolvedTo === undefined ? `is ${kind}` : `resolves to ${resolvedTo}, ${kind}`;
  return `Webhook target '${host}' ${what}; webhooks go only to public addresses unless the server runs with ${ALLOW_PRIVATE_FLAG}`;
}

/**
 * The receiving server a webhook URL names (host and port): an org's deliveries to one go a few at
 * a time. A URL that does not parse (stored before URLs were checked) is a target of its own.
 */
export function webhookTargetOf(url: string): string {
  return URL.parse(url)?.host ?? url;
}
