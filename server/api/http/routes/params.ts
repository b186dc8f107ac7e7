// Path-parameter schemas for the URL segments several route files share, written once so every
// route that names an environment, flow or trail reads its segments the same way.

export const envParams = {
  type: 'object',
  required: ['org', 'env'],
  properties: { org: { type: 'string' }, env: { type: 'string' } },
} as const;

export const flowParams = {
  type: 'object',
  required: ['org', 'flow'],
  properties: { org: { type: 'string' }, flow: { type: 'string' } },
} as const;

export const trailParams = {
  type: 'object',
  required: ['org', 'flow', 'trail'],
  properties: { org: { type: 'string' }, flow: { type: 'string' }, trail: { type: 'string' } },
} as const;
