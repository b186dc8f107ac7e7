// The workbench in headless Chromium, told before it loads to run the extension under development
// and its tests: code-server's built workbench ignores the test flags of the URL but honours
// `developmentOptions` in its embedded configuration, which it reads through getAttribute.
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { CHROMIUM, CHROMIUM_ARGS } from '../../support/browser.ts';

const chromiumArgs = [
  ...CHROMIUM_ARGS,
  // Every host name but the loopback address fails to resolve: the page can reach nothing else.
  '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
];

/** Runs in the page before the workbench's scripts. */
function injectDevelopmentOptions(development) {
  const original = Element.prototype.getAttribute;
  Element.prototype.getAttribute = function getAttribute(name) {
    const value = original.call(this, name);
    if (name === 'data-settings' && this.id === 'vscode-workbench-web-configuration' && value) {
      const config = JSON.parse(value);
      config.developmentOptions = { ...(config.developmentOptions ?? {}), ...development };
      return JSON.stringify(config);
    }
    return value;
  };
}

/**
 * Opens `folder` in the workbench at `baseUrl`, loading `extensionPath` for development and running
 * the test module `testsPath` (both paths on the server's file system). Returns the page and a
 * promise of the exit code the workbench reports when the tests end.
 */
export async function openWorkbench({ e2eDir, baseUrl, folder, extensionPath, testsPath, onLog, onConsole }) {
  const { chromium } = createRequire(path.join(e2eDir, 'package.json'))('playwright-core');
  const authority = new URL(baseUrl).host;
  const remote = (fsPath) => ({ $mid: 1, scheme: 'vscode-remote', authority, path: fsPath });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: chromiumArgs });
  try {
    const context = await browser.newContext({
      viewport: { width: 1440, height: 900 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    const page = await context.newPage();
    page.on('console', (message) => onConsole(message.type(), message.text()));
    page.on('pageerror', (error) => onConsole('pageerror', error.stack ?? error.message));
    let reportExit;
    const exitCode = new Promise((resolve) => (reportExit = resolve));
    await page.exposeFunction('codeAutomationLog', (type, args) => onLog(type, args ?? []));
    await page.exposeFunction('codeAutomationExit', (code) => reportExit(code));
    // A crashed page never reports an exit code: end the run now rather than at its time limit.
    page.on('crash', () => reportExit('the page crashed'));
    await page.addInitScript(injectDevelopmentOptions, {
      extensions: [remote(extensionPath)],
      extensionTestsPath: remote(testsPath),
    });
    await page.goto(`${baseUrl}/?folder=${encodeURIComponent(folder)}`);
    return { browser, page, exitCode };
  } catch (error) {
    await browser.close();
    throw error;
  }
}
