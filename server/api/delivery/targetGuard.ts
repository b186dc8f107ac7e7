// The HTTP client webhook deliveries go through, which keeps them to the targets they may reach
// (rules/webhookTargets.ts). A name is checked once resolved, every address it resolves to, and
// the connection goes to the very addresses checked: the check is the connection's own DNS
// lookup, so a name cannot answer a public address to the check and a private one to the connect.
// An address in the URL itself is checked before anything is sent (a connection to one looks
// nothing up). The client is the deliverer's own, never the process's global one.
import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { Agent, type Dispatcher } from 'undici';
import { forbiddenAddressKind, forbiddenHostKind, refusedTargetMessage } from '../rules/webhookTargets.ts';

/** A target the delivery may not reach; final: trying again would not change where it points. */
export class RefusedTarget extends Error {
  override readonly name = 'RefusedTarget';
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** dns.lookup as a connection calls it, refusing a name that resolves to any forbidden address. */
function checkedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error !== null) {
      callback(error, []);
      return;
    }
    for (const { address } of addresses) {
      const kind = forbiddenAddressKind(address);
      if (kind !== undefined) {
        callback(new RefusedTarget(refusedTargetMessage(hostname, kind, address)), []);
        return;
      }
    }
    if (options.all === true) callback(null, addresses);
    else if (addresses.length > 0) callback(null, addresses[0].address, addresses[0].family);
    else callback(Object.assign(new Error(`${hostname} resolves to no address`), { code: 'ENOTFOUND' }), []);
  });
}

/** The HTTP client of a deliverer, and the check of what its client cannot see (an address in the URL). */
export interface TargetGuard {
  readonly dispatcher: Dispatcher;
  /** Why `url` may not be reached, when its host says so without DNS (an address, `localhost`); else undefined. */
  refusal(url: string): RefusedTarget | undefined;
  close(): Promise<void>;
}

/** With `allowPrivate` (the operator's flag) any target, else public addresses only. */
export function targetGuard(allowPrivate: boolean): TargetGuard {
  const agent = allowPrivate ? new Agent() : new Agent({ connect: { lookup: checkedLookup } });
  return {
    dispatcher: agent,
    refusal(url) {
      // A URL that does not parse is left to the client, which fails it as it fails any request.
      const parsed = allowPrivate ? null : URL.parse(url);
      if (parsed === null) return undefined;
      const kind = forbiddenHostKind(parsed.hostname);
      return kind === undefined ? undefined : new RefusedTarget(refusedTargetMessage(parsed.hostname, kind));
    },
    close: () => agent.close(),
  };
}
