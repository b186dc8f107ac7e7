// The time records are stamped with, in the hosted service's format (reference §1.6).

/** Epoch seconds with sub-second precision. */
export function nowSeconds(): number {
  return Date.now() / 1000;
}
