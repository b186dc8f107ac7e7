// The API's two error bodies (spec §Errors, reference §1.2): `{message}` and
// `{errors: {<field>: <message>}, message}`. One schema covers both, since `errors` is optional.
import { string } from './values.ts';

export const errorBody = {
  title: 'Error',
  type: 'object',
  properties: {
    errors: {
      type: 'object',
      additionalProperties: string,
      description: 'Field path → pydantic-style message with the echoed input.',
    },
    message: string,
  },
  required: ['message'],
  additionalProperties: false,
} as const;
