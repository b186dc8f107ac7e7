// Sidebar tooltips are Markdown built from what reporters wrote. Rendered with a real Markdown
// renderer, hostile names, descriptions and messages show as text: no link, no image, no markup.
import assert from 'node:assert/strict';
import { marked } from 'marked';
import { environmentNode, snapshotArtifactNodes } from '../../../client/tree/environmentModel.ts';
import { flowNode, trailNode } from '../../../client/tree/flowModel.ts';
import { code, markdownText } from '../../../client/tree/markdown.ts';

const HOSTILE = [
  '[click me](https://evil.invalid/steal)',
  '![tracker](https://evil.invalid/pixel.png)',
  '<img src=x onerror=alert(1)>',
  '<script>alert(1)</script>',
  'javascript:alert(1)',
  'https://evil.invalid/autolink',
  '<https://evil.invalid/angle>',
  '**bold** _it_ `code` # heading',
  'line one\n\n# heading\n- item\n[ref]: https://evil.invalid',
  '\u202Eevil\u202C right-to-left override',
  'x'.repeat(5000),
];

function rendered(markdown: string): string {
  return marked.parse(markdown, { async: false });
}

function assertInert(markdown: string, value: string): void {
  const html = rendered(markdown);
  assert.doesNotMatch(
    html,
    /<a\s|<img\s|<script|<h[1-6]|<li>/i,
    `${JSON.stringify(value.slice(0, 60))} rendered as markup: ${html.slice(0, 300)}`,
  );
}

describe('tooltip Markdown from untrusted text', () => {
  it('escapes each hostile value to plain text', () => {
    for (const value of HOSTILE) assertInert(markdownText(value), value);
  });

  it('keeps a code span closed whatever backticks the value holds', () => {
    for (const value of ['a`b', '``x``', '` [x](https://evil.invalid) `']) {
      const html = rendered(code(value).text);
      assert.match(html, /^<p><code>/);
      assert.doesNotMatch(html, /<a\s/);
    }
  });

  it('makes no live link or image in any tooltip the views build from hostile data', () => {
    for (const value of HOSTILE) {
      const tooltips = [
        flowNode({ name: value, description: value, latest_state: 'COMPLIANT' }).tooltip,
        trailNode('web', {
          name: value,
          description: value,
          git_commit_info: { sha1: value, message: value },
          compliance_state: 'INCOMPLETE',
        }).tooltip,
        environmentNode({ name: value, type: value, description: value, policies: [value], state: false }).tooltip,
        ...snapshotArtifactNodes('prod', {
          index: 1,
          artifacts: [
            {
              name: value,
              fingerprint: value,
              compliant: false,
              reasons_for_incompliance: [value],
              annotation: { type: value, was: 0, now: 1 },
              flows: [{ flow_name: value, trail_name: value }],
            },
          ],
        }).map((node) => node.tooltip),
      ];
      for (const tooltip of tooltips) assertInert(tooltip ?? '', value);
    }
  });
});
