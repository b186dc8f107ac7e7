// The value schemas every response schema is built from. Plain `as const` objects, so TypeScript
// types derive from them (json-schema-to-ts) and fastify, the OpenAPI document and the tests read
// the very same objects.

export const string = { type: 'string' } as const;
export const nullableString = { type: ['string', 'null'] } as const;
export const number = { type: 'number' } as const;
export const nullableNumber = { type: ['number', 'null'] } as const;
export const integer = { type: 'integer' } as const;
export const boolean = { type: 'boolean' } as const;
export const nullableBoolean = { type: ['boolean', 'null'] } as const;
export const stringList = { type: 'array', items: string } as const;
/** A free-form JSON object (user_data, annotations, tags, ...). */
export const anyObject = { type: 'object' } as const;
/** Any JSON value at all (user_data may even be null). */
export const anyValue = {} as const;
export const anyList = { type: 'array' } as const;

/** Spec: fingerprints are 64 lowercase hex characters. */
export const fingerprint = { type: 'string', pattern: '^[a-f0-9]{64}$' } as const;

/** A JSON string body, the hosted service's answer to most writes (reference §1.3). */
export const messageString = { type: 'string', description: 'A confirmation, sent as a JSON string.' } as const;

export const link = {
  type: 'object',
  properties: { href: string },
  required: ['href'],
  additionalProperties: false,
} as const;
/** `_links`: self, first, last, next, prev, evidence, snapshot, ... each `{href}`. */
export const links = { type: 'object', additionalProperties: link } as const;
