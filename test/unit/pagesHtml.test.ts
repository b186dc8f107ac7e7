// The pages' one escaping mechanism: every value is text unless this same tag made it.
import assert from 'node:assert/strict';
import { html, link } from '../../shared/html.ts';
import { brief, hrefOf } from '../../server/api/http/pages/markup.ts';

describe('page templates', () => {
  it('escape every interpolated value, in text and in attributes', () => {
    const hostile = `<script>window.pwned=1</script>"' onload="x"&`;
    assert.equal(
      html`<p title="${hostile}">${hostile}</p>`.text,
      '<p title="&lt;script&gt;window.pwned=1&lt;/script&gt;&quot;&#39; onload=&quot;x&quot;&amp;">&lt;script&gt;window.pwned=1&lt;/script&gt;&quot;&#39; onload=&quot;x&quot;&amp;</p>',
    );
  });

  it('pass through only markup made by the tag, and join lists', () => {
    const items = ['<b>', 'ok'].map((text) => html`<li>${text}</li>`);
    assert.equal(html`<ul>${items}</ul>`.text, '<ul><li>&lt;b&gt;</li><li>ok</li></ul>');
    assert.equal(html`${undefined}${null}${false}${0}`.text, '0');
  });

  it('isolate text with direction overrides, so it cannot reorder the words after it', () => {
    assert.equal(html`<p>by ${'\u202Egnp.exe'}: fix</p>`.text, '<p>by \u2068\u202Egnp.exe\u2069: fix</p>');
    assert.equal(html`<p>${'plain'}</p>`.text, '<p>plain</p>');
    assert.equal(
      html`<a href="${'https://a.test/\u202E'}">x</a>`.text,
      '<a href="https://a.test/\u202E">x</a>',
      'attribute values unchanged',
    );
  });

  it('make links only of http(s) URLs', () => {
    assert.equal(
      link('https://ci.example.test/1?a=1&b=2', 'build').text,
      '<a href="https://ci.example.test/1?a=1&amp;b=2">build</a>',
    );
    assert.equal(link('/api/v2/doc/', 'reference').text, '<a href="/api/v2/doc/">reference</a>');
    for (const href of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'data:text/html,<script>1</script>',
      'vbscript:x',
    ]) {
      assert.equal(link(href, '<x>').text, '&lt;x&gt;', href);
    }
  });

  it('turn every view reference into the page of its html_url, names encoded', () => {
    assert.equal(hrefOf('a b', { kind: 'trail', flow: 'f/1', trail: 't?x' }), '/a%20b/flows/f%2F1/trails/t%3Fx');
    assert.equal(
      hrefOf('acme', { kind: 'attestation', flow: 'f', trail: 't', attestationId: 'id&1' }),
      '/acme/flows/f/trails/t?attestation_id=id%261',
    );
    assert.equal(
      hrefOf('acme', { kind: 'artifact', flow: 'f', fingerprint: 'ab', trail: 't 1' }),
      '/acme/flows/f/artifacts/ab?trail=t%201',
    );
    assert.equal(
      hrefOf('acme', { kind: 'snapshot', environment: 'prod', index: 3 }),
      '/acme/environments/prod/snapshots/3',
    );
    assert.equal(
      hrefOf('acme', {
        kind: 'comparison',
        from: { environment: 'prod', index: 2 },
        to: { environment: 'prod', index: 3 },
      }),
      '/acme/environments/prod/compare?from=2&to=3',
    );
    assert.equal(
      hrefOf('acme', {
        kind: 'comparison',
        from: { environment: 'stage', index: 7 },
        to: { environment: 'prod', index: 3 },
      }),
      '/acme/environments/prod/compare?from=stage%237&to=3',
    );
    assert.equal(hrefOf('acme', { kind: 'external', url: 'https://x.test' }), 'https://x.test');
  });

  it('cut long list text by characters, not code units', () => {
    assert.equal(brief('short'), 'short');
    assert.equal(brief('😀'.repeat(5), 3), '😀😀😀…');
  });
});
