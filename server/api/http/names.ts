// Patterns of path and query parameters (the request bodies' patterns live in shared/schemas).
/** A fingerprint or commit prefix: at least 5 hex characters (reference §1.6). */
export const HEX_PREFIX = '^[a-fA-F0-9]{5,64}$';
