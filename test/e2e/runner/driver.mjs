// What the tests in the extension host cannot do through the VS Code API (type into an input box,
// read what the page shows, take a screenshot) they ask of the runner through a folder: they write
// `request-<id>.json`, the runner does it on the page and writes `response-<id>.json`. Files, not the
// log, so that a request is never lost or split and the answer reaches the waiting test.
import { readdir, readFile, rename, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { waitFor } from '../../support/wait.ts';

/** Serves requests until `stop()` is called; one at a time, in the order of their ids. */
export function serveDriver({ page, dir, screenshotsDir, log }) {
  let running = true;
  // Any dialog a page of ours (or a webview inside it) opens would mean something ran: record it.
  const dialogs = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss().catch(() => undefined);
  });
  const actions = {
    async screenshot({ name }) {
      const file = path.join(screenshotsDir, `${name.replace(/[^\w.-]/g, '_')}.png`);
      await page.screenshot({ path: file });
      log(`screenshot ${file}`);
      return { file };
    },
    /** Types into the open quick input (input box or quick pick filter) and accepts. */
    async fillQuickInput({ text, timeoutMs = 10_000 }) {
      const input = page.locator('.quick-input-widget .quick-input-box input');
      await input.waitFor({ state: 'visible', timeout: timeoutMs });
      await input.fill(text);
      await input.press('Enter');
      return {};
    },
    /** Clicks the first element matching `selector`, narrowed to those containing `text` or with the row label `label`. */
    async click({ selector, text, label, timeoutMs = 10_000 }) {
      let target = page.locator(selector);
      if (text !== undefined) target = target.filter({ hasText: text });
      if (label !== undefined)
        target = target.filter({
          has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${escapeRegExp(label)}\\s*$`) }),
        });
      await target.first().click({ timeout: timeoutMs });
      return {};
    },
    async press({ key }) {
      await page.keyboard.press(key);
      return {};
    },
    /** What the elements matching `selector` show now: text, label (of a list row), aria label, expansion and selection, codicon classes. */
    async query({ selector }) {
      const elements = await page.locator(selector).evaluateAll((nodes) =>
        nodes.map((node) => ({
          text: node.innerText ?? node.textContent ?? '',
          label: node.querySelector('.label-name')?.textContent ?? null,
          ariaLabel: node.getAttribute('aria-label'),
          expanded: node.getAttribute('aria-expanded'),
          selected: node.getAttribute('aria-selected'),
          icons: [...node.querySelectorAll('.codicon')].map((icon) => icon.className),
        })),
      );
      return { elements };
    },
  };

  Object.assign(actions, webviewActions(page), {
    async dialogs() {
      return { dialogs: [...dialogs] };
    },
  });

  const done = (async () => {
    while (running) {
      const pending = (await readdir(dir))
        .filter((name) => /^request-\d+\.json$/.test(name))
        .sort((a, b) => idOf(a) - idOf(b));
      for (const name of pending) {
        const requestFile = path.join(dir, name);
        const request = JSON.parse(await readFile(requestFile, 'utf8'));
        await rename(requestFile, `${requestFile}.taken`);
        let response;
        try {
          const action = actions[request.action];
          if (!action) throw new Error(`unknown driver action '${request.action}'`);
          response = { ok: true, ...(await action(request)) };
        } catch (error) {
          response = { ok: false, error: error instanceof Error ? error.message : String(error) };
        }
        const responseFile = path.join(dir, `response-${request.id}.json`);
        await writeFile(`${responseFile}.tmp`, JSON.stringify(response));
        await rename(`${responseFile}.tmp`, responseFile);
      }
      if (pending.length === 0) await delay(50);
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
    },
  };
}

/**
 * A detail webview's document lives in a frame inside a frame of the workbench; the one showing a
 * view of `kind` has `<body data-kind="kind">`. Each action waits (bounded) for that frame.
 */
function webviewActions(page) {
  async function frameOf(kind, timeoutMs) {
    const showing = async () => {
      for (const frame of page.frames()) {
        const shown = await frame.evaluate(() => document.body?.dataset?.kind ?? null).catch(() => null);
        if (shown === kind) return frame;
      }
      return undefined;
    };
    return await waitFor(showing, `a webview showing a ${kind} view`, timeoutMs);
  }
  return {
    /** The view's main text, whether a probe variable was set, and the elements matching `selector`. */
    async webviewQuery({ kind, selector = 'button', timeoutMs = 20_000 }) {
      const frame = await frameOf(kind, timeoutMs);
      return frame.evaluate(
        (sel) => ({
          text: document.querySelector('main')?.innerText ?? '',
          probe: window.pwned ?? null,
          scripts: [...document.scripts].map((script) => script.src),
          elements: [...document.querySelectorAll(sel)].map((node) => ({
            text: node.innerText ?? '',
            tag: node.tagName.toLowerCase(),
            message: node.getAttribute('data-message'),
          })),
        }),
        selector,
      );
    },
    /** Clicks the first element matching `selector` that contains `text`. */
    async webviewClick({ kind, selector = 'button', text, timeoutMs = 20_000 }) {
      const frame = await frameOf(kind, timeoutMs);
      let target = frame.locator(selector);
      if (text !== undefined) target = target.filter({ hasText: text });
      await target.first().click({ timeout: timeoutMs });
      return {};
    },
    /** Scrolls the view until the first element matching `selector` that contains `text` is in sight. */
    async webviewReveal({ kind, selector, text, timeoutMs = 20_000 }) {
      const frame = await frameOf(kind, timeoutMs);
      let target = frame.locator(selector);
      if (text !== undefined) target = target.filter({ hasText: text });
      await target.first().evaluate((node) => node.scrollIntoView({ block: 'start' }));
      return {};
    },
    /** Moves the keyboard focus to the element as Tab would, then presses `key` on it. */
    async webviewPress({ kind, selector = 'button', text, key, timeoutMs = 20_000 }) {
      const frame = await frameOf(kind, timeoutMs);
      let target = frame.locator(selector);
      if (text !== undefined) target = target.filter({ hasText: text });
      await target.first().focus({ timeout: timeoutMs });
      await target.first().press(key, { timeout: timeoutMs });
      return {};
    },
  };
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function idOf(name) {
  return Number(/\d+/.exec(name)[0]);
}
