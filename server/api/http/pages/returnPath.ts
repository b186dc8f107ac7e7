// Where sign-in sends a visitor back to: the page they asked for before they were signed in, given
// to /sign-in as `?next=<path>` and carried through its form. Only a path of this server is taken:
// anything that would leave it (`//host`, `/\host`, `https:...`, a control character that a
// browser drops) becomes `/`, so the parameter cannot be made an open redirect.

/** Longer than any page address of this server; a longer one is no page of ours. */
const LONGEST = 2048;

/** The sign-in pages themselves: returning to them after signing in would only ask again. */
const NOT_RETURNED_TO = new Set(['/sign-in', '/sign-out']);

/** Browsers drop tabs and line breaks from an address, which can join `/` and `/host` into `//host`. */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** `next` as a path of this server (path, query, fragment), or `/` when it is anything else. */
export function returnPathOf(next: unknown): string {
  if (typeof next !== 'string' || next.length > LONGEST) return '/';
  // One leading slash, then no second slash or backslash that a browser reads as another host.
  if (!next.startsWith('/') || next.startsWith('//') || next.includes('\\') || hasControlCharacter(next)) return '/';
  const base = 'http://this.server';
  let url: URL;
  try {
    url = new URL(next, base);
  } catch {
    return '/';
  }
  if (url.origin !== base || NOT_RETURNED_TO.has(url.pathname)) return '/';
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The sign-in page's address that returns to `path` afterwards (plain `/sign-in` for the home page). */
export function signInHrefFor(path: string): string {
  const returned = returnPathOf(path);
  return returned === '/' ? '/sign-in' : `/sign-in?next=${encodeURIComponent(returned)}`;
}
