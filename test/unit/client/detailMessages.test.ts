// Every message a detail webview posts is checked before the extension acts on it: exactly one of
// the known shapes, bounded text, http(s) URLs only. Anything else is refused (undefined).
import assert from 'node:assert/strict';
import { httpUrlFrom, messageFrom, targetFrom } from '../../../client/details/messages.ts';

describe('detail view messages', () => {
  it('accepts each message the views send', () => {
    const accepted = [
      { type: 'open', target: { kind: 'trail', flow: 'shop', trail: 'build-1' } },
      { type: 'open', target: { kind: 'attestation', flow: 'shop', trail: 'build-1', attestationId: 'a1b2' } },
      { type: 'open', target: { kind: 'attestation', flow: 'shop', trail: 'build-1', name: 'unit-tests' } },
      { type: 'open', target: { kind: 'artifact', flow: 'shop', fingerprint: 'ab'.repeat(32) } },
      { type: 'open', target: { kind: 'artifact', flow: 'shop', fingerprint: 'ab'.repeat(32), trail: 'build-1' } },
      { type: 'open', target: { kind: 'environment', environment: 'prod' } },
      { type: 'open', target: { kind: 'snapshot', environment: 'prod', index: 3 } },
      { type: 'open', target: { kind: 'compare', environment: 'prod', from: 2, to: 3 } },
      { type: 'external', url: 'https://ci.example.test/build/1?x=1' },
      { type: 'external', url: 'http://127.0.0.1:8080/' },
      { type: 'evidence', action: 'open', flow: 'shop', trail: 'build-1', attestationId: 'a1b2' },
      { type: 'evidence', action: 'save', flow: 'shop', trail: 'build-1', attestationId: 'a1b2' },
      { type: 'page', list: 'events', page: 2 },
      { type: 'retry' },
    ];
    for (const message of accepted) assert.deepEqual(messageFrom(message), message, JSON.stringify(message));
  });

  it('refuses anything else: wrong types, unknown kinds, extra keys, missing fields', () => {
    const refused: unknown[] = [
      undefined,
      null,
      'open',
      42,
      [],
      { type: 'run', command: 'workbench.action.terminal.new' },
      { type: 'open' },
      { type: 'open', target: { kind: 'flow', flow: 'shop' } },
      { type: 'open', target: { kind: 'trail', flow: 'shop' } },
      { type: 'open', target: { kind: 'trail', flow: 'shop', trail: 'b', extra: 1 } },
      { type: 'open', target: { kind: 'trail', flow: 'shop', trail: 'b' }, command: 'x' },
      { type: 'open', target: { kind: 'attestation', flow: 'shop', trail: 'b' } },
      { type: 'open', target: { kind: 'trail', flow: 7, trail: 'b' } },
      { type: 'open', target: { kind: 'trail', flow: '', trail: 'b' } },
      { type: 'open', target: { kind: 'trail', flow: 'x'.repeat(1025), trail: 'b' } },
      { type: 'open', target: { kind: 'trail', flow: 'shop\n', trail: 'b' } },
      { type: 'open', target: { kind: 'snapshot', environment: 'prod', index: 0 } },
      { type: 'open', target: { kind: 'snapshot', environment: 'prod', index: 1.5 } },
      { type: 'open', target: { kind: 'snapshot', environment: 'prod', index: '3' } },
      { type: 'open', target: { kind: 'compare', environment: 'prod', from: 1 } },
      { type: 'open', target: { kind: '__proto__' } },
      { type: 'open', target: { kind: 'toString', flow: 'a' } },
      { type: 'evidence', action: 'delete', flow: 'shop', trail: 'b', attestationId: 'a' },
      { type: 'evidence', action: 'open', flow: 'shop', trail: 'b' },
      { type: 'page', list: 'events', page: -1 },
      { type: 'page', list: 'events', page: Number.NaN },
      { type: 'page', list: 'events', page: 2, extra: true },
      { type: 'retry', now: true },
    ];
    for (const message of refused) assert.equal(messageFrom(message), undefined, JSON.stringify(message));
  });

  it('opens only absolute http(s) URLs', () => {
    for (const url of [
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      ' javascript:alert(1)',
      'data:text/html,<script>1</script>',
      'vbscript:x',
      'file:///etc/passwd',
      'command:workbench.action.terminal.new',
      'vscode://file/etc/passwd',
      '//evil.invalid/x',
      '/relative',
      'https://',
      'not a url',
      '',
      'x'.repeat(9000),
    ]) {
      assert.equal(messageFrom({ type: 'external', url }), undefined, url);
      assert.equal(httpUrlFrom(url), undefined, url);
    }
    assert.equal(httpUrlFrom('HTTPS://Example.test/a b'), 'https://example.test/a%20b');
  });

  it('ignores keys inherited from a prototype and objects that are not plain', () => {
    const polluted = Object.create({ flow: 'shop', trail: 'b' }) as object;
    Object.assign(polluted, { kind: 'trail' });
    assert.equal(targetFrom(polluted), undefined);
    assert.equal(targetFrom(JSON.parse('{"kind":"trail","flow":"a","trail":"b","__proto__":{"x":1}}')), undefined);
    class Target {
      kind = 'trail';
      flow = 'a';
      trail = 'b';
    }
    assert.equal(targetFrom(new Target()), undefined);
  });
});

describe('notification text from elsewhere', () => {
  it('breaks the link syntax notifications would make live', async () => {
    const { notificationText } = await import('../../../client/commands/notificationText.ts');
    assert.equal(
      notificationText('Bad input: [run](command:workbench.action.terminal.new) and [x] (https://a.test)'),
      'Bad input: [run] (command:workbench.action.terminal.new) and [x] (https://a.test)',
    );
    assert.equal(notificationText('[a](file:///etc/passwd)'), '[a] (file:///etc/passwd)');
    assert.equal(notificationText('[a]\n(https://a.test)'), '[a] (https://a.test)');
  });
});
