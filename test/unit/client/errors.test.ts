import assert from 'node:assert/strict';
import { apiErrorFromBody } from '../../../shared/apiClient/errors.ts';

describe('API errors as the user reads them', () => {
  it('keeps the message and the field errors, sorted by field', () => {
    const error = apiErrorFromBody(
      400,
      'Bad Request',
      JSON.stringify({
        message: 'Invalid report data',
        errors: {
          'artifacts[0].podName': 'Field required [input: None]',
          'artifacts[0].digests': 'Input should be a valid dictionary [input: ]',
        },
      }),
    );
    assert.equal(error.status, 400);
    assert.equal(error.message, 'Invalid report data');
    assert.equal(
      error.detail,
      'Invalid report data: artifacts[0].digests: Input should be a valid dictionary [input: ]; artifacts[0].podName: Field required [input: None]',
    );
  });

  it('cuts the route hint off a not-found message, as the official client does', () => {
    assert.equal(
      apiErrorFromBody(
        404,
        'Not Found',
        '{"message":"Not Found. You have requested this URI [/api/v2/x] but it does not exist"}',
      ).message,
      'Not Found.',
    );
  });

  it('shows a bare JSON string, an object without message, or text as they are', () => {
    assert.equal(apiErrorFromBody(400, 'Bad Request', '"Nope"').message, 'Nope');
    assert.equal(apiErrorFromBody(400, 'Bad Request', '{"detail":"x"}').message, '{"detail":"x"}');
    assert.equal(apiErrorFromBody(502, 'Bad Gateway', '<html>proxy</html>').message, '<html>proxy</html>');
    assert.equal(apiErrorFromBody(503, 'Service Unavailable', '').message, '503 Service Unavailable');
  });
});
