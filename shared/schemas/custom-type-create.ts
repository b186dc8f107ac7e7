import { CUSTOM_TYPE_NAME_PATTERN } from '../names.ts';

export default {
  $id: 'https://compliance-evidence.dev/schemas/custom-type-create/v1',
  title: 'CustomAttestationTypePostInput',
  description:
    'The `data_json` part of POST /custom-attestation-types/{org} (the JSON Schema of the data is the `type_schema` part). Creating an existing name makes a new version.',
  type: 'object',
  properties: {
    name: {
      description: "The type's name, used as `custom:<name>` in templates and `type_name` in attestations.",
      type: 'string',
      pattern: CUSTOM_TYPE_NAME_PATTERN,
    },
    description: {
      description: 'What the type attests.',
      type: ['string', 'null'],
    },
    evaluator: {
      description: 'How compliance is decided: jq rules that must all be true of the attestation data.',
      type: ['object', 'null'],
      properties: {
        content_type: {
          description: 'The rule language.',
          enum: ['jq'],
        },
        rules: {
          description:
            'jq expressions over the attestation data, all of which must hold for compliant data. A rule holds when it yields at least one output and every output is truthy (neither false nor null); a runtime error fails it. Rules use a jq subset: paths (.a.b, .a[0], .[], .a[1:], ? suffix), literals, arithmetic, comparisons, and, or, not, //, if/elif/else, array and object construction, pipes, and the builtins length, keys, type, has, in, inside, select, map, any, all, test, startswith, endswith, contains, add, min, max, first, last, sort, unique, join, split, ltrimstr, rtrimstr, values, to_entries, floor, tostring, tojson, tonumber, ascii_downcase, ascii_upcase, empty. A rule outside the subset (variables, reduce, def, formats, ..) is refused with its column when the type is created.',
          type: 'array',
          items: { description: 'A jq expression.', type: 'string', minLength: 1 },
        },
      },
      required: ['content_type', 'rules'],
      additionalProperties: false,
    },
    summary: {
      description: 'Values shown for an attestation of this type: a name and a jq expression each.',
      type: ['array', 'null'],
      items: {
        description: 'One summary value.',
        type: 'object',
        properties: {
          name: { description: "The value's label.", type: 'string' },
          expression: { description: 'The jq expression computing it.', type: 'string' },
        },
        required: ['name', 'expression'],
        additionalProperties: false,
      },
    },
  },
  required: ['name'],
  additionalProperties: false,
} as const;
