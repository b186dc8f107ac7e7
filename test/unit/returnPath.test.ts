// Where sign-in returns to (server/api/http/pages/returnPath.ts): a path of this server comes back
// as given; whatever a browser could read as another host, or no path at all, becomes `/`.
import assert from 'node:assert/strict';
import { returnPathOf, signInHrefFor } from '../../server/api/http/pages/returnPath.ts';

describe('the page sign-in returns to', () => {
  it('keeps a path of this server with its query and fragment', () => {
    for (const path of [
      '/acme/flows/shop/trails/build-7',
      '/acme/flows/shop/trails/build-7?attestation_id=0c2b',
      '/acme/environments/production/compare?from=1&to=2',
      '/acme/flows/a%20b#events',
      '/',
    ])
      assert.equal(returnPathOf(path), path);
  });

  it('sends anything that could leave this server home instead', () => {
    for (const hostile of [
      '//evil.example/x',
      '///evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      'evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      '',
      `/${'a'.repeat(3000)}`,
      undefined,
      ['/acme'],
    ])
      assert.equal(returnPathOf(hostile), '/', JSON.stringify(hostile));
  });

  it('does not return to the sign-in pages themselves', () => {
    assert.equal(returnPathOf('/sign-in?next=/acme'), '/');
    assert.equal(returnPathOf('/sign-out'), '/');
  });

  it('makes the sign-in address that returns to a page', () => {
    assert.equal(signInHrefFor('/acme/flows?page=2'), '/sign-in?next=%2Facme%2Fflows%3Fpage%3D2');
    assert.equal(signInHrefFor('/'), '/sign-in');
    assert.equal(signInHrefFor('//evil.example'), '/sign-in');
  });
});
