// The pagination shapes of list responses (spec "Resources", reference §1.4): the `pagination`
// object of `{data, pagination}` lists, and the `page/per_page/total_pages/total_count` wrapper of
// the resource-named lists (environments, controls, repos).
import { integer, links } from './values.ts';

export const pagination = {
  type: 'object',
  properties: { total: integer, page: integer, per_page: integer, page_count: integer },
  required: ['total', 'page', 'per_page', 'page_count'],
  additionalProperties: false,
} as const;

/** `{data: [item], pagination}`; `_links` where the list has page links. */
export function dataPage<const Item>(item: Item) {
  return {
    type: 'object',
    properties: { data: { type: 'array', items: item }, _links: links, pagination },
    required: ['data'],
    additionalProperties: false,
  } as const;
}

/** `{data: [item], pagination, _links}`, all three always there: the paged lists reference §8.4 added. */
export function linkedDataPage<const Item>(item: Item) {
  return { ...dataPage(item), required: ['data', 'pagination', '_links'] } as const;
}

/** `{<name>: [item], page, per_page, total_pages, total_count, _links}` (reference §1.4 style B). */
export function namedPage<const Name extends string, const Item>(name: Name, item: Item) {
  return {
    type: 'object',
    properties: {
      [name]: { type: 'array', items: item },
      page: integer,
      per_page: integer,
      total_pages: integer,
      total_count: integer,
      _links: links,
    } as {
      [K in Name]: { readonly type: 'array'; readonly items: Item };
    } & {
      page: typeof integer;
      per_page: typeof integer;
      total_pages: typeof integer;
      total_count: typeof integer;
      _links: typeof links;
    },
    required: [name, 'page', 'per_page', 'total_pages', 'total_count', '_links'],
    additionalProperties: false,
  } as const;
}

/** A list record that could not be rendered (spec §Errors: a marked placeholder). */
export const placeholder = {
  type: 'object',
  properties: { placeholder: { const: true }, id: { type: 'string' }, message: { type: 'string' } },
  required: ['placeholder', 'id', 'message'],
  additionalProperties: false,
} as const;

/** An item of a list, or the placeholder standing in for it. */
export function orPlaceholder<const Item>(item: Item) {
  return { anyOf: [item, placeholder] } as const;
}
