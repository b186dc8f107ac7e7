import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { pickEnvironmentCommand, showPreviewListCommand } from '../../../shared/protocol.ts';
import { defaultFileGlobs } from '../../../shared/settings.ts';
// Imported as JSON, the manifest is typed as the file is: a test reading a key it lacks fails to compile.
import manifest from '../../../package.json' with { type: 'json' };

const root = new URL('../../../', import.meta.url);
const contributes = manifest.contributes;

// The identity contract of issue 6: tests and users rely on these exact ids and titles.
const paletteTitles: Record<string, string> = {
  'complianceEvidence.localServer.start': 'Start Local Server',
  'complianceEvidence.localServer.stop': 'Stop Local Server',
  'complianceEvidence.signIn': 'Sign In',
  'complianceEvidence.signOut': 'Sign Out',
  'complianceEvidence.refresh': 'Refresh',
  'complianceEvidence.createFlow': 'Create or Update Flow from Template',
  'complianceEvidence.beginTrail': 'Begin Trail',
  'complianceEvidence.attestScan': 'Attest Scan Result',
  'complianceEvidence.reportK8s': 'Report K8S Environment',
  'complianceEvidence.search': 'Search Artifacts',
  'complianceEvidence.openInBrowser': 'Open in Browser',
  'complianceEvidence.showAuditLog': 'Show Audit Log',
  'complianceEvidence.showDetails': 'Show Details',
  'complianceEvidence.compareSnapshots': 'Compare with Snapshot…',
  'complianceEvidence.policyDryRun': 'Dry-Run Policy on an Environment',
};

describe('extension manifest', () => {
  it('has the identity, the activity bar container and the two views', () => {
    assert.equal(manifest.name, 'compliance-evidence');
    assert.equal(manifest.displayName, 'Compliance Evidence');
    assert.equal(manifest.publisher, 'compliance-evidence');
    assert.equal(manifest.engines.vscode, '^1.104.0');
    assert.equal(manifest.main, './dist/extension.js');
    assert.deepEqual(
      contributes.viewsContainers.activitybar.map((c: { id: string }) => c.id),
      ['complianceEvidence'],
    );
    assert.deepEqual(
      contributes.views.complianceEvidence.map((v: { id: string; name: string }) => [v.id, v.name]),
      [
        ['complianceEvidence.flows', 'Flows'],
        ['complianceEvidence.environments', 'Environments'],
      ],
    );
  });

  it('contributes the fifteen commands with their titles under one category, each registered by the extension', () => {
    const source = readFileSync(new URL('client/extension.ts', root), 'utf8');
    assert.deepEqual(
      Object.fromEntries(contributes.commands.map((c: { command: string; title: string }) => [c.command, c.title])),
      paletteTitles,
    );
    // The commands the language server's lenses carry are registered by their names in shared/protocol.ts.
    const protocolNames: Record<string, string> = {
      [showPreviewListCommand]: 'showPreviewListCommand',
      [pickEnvironmentCommand]: 'pickEnvironmentCommand',
    };
    for (const command of contributes.commands) {
      assert.equal(command.category, 'Compliance Evidence');
      const name = protocolNames[command.command];
      assert.ok(
        source.includes(name === undefined ? `'${command.command}'` : `command(${name},`),
        `${command.command} is not registered in client/extension.ts`,
      );
    }
  });

  it('hides tree-only commands from the palette and matches capability flags by regex', () => {
    const hidden = contributes.menus.commandPalette
      .filter((m: { when: string }) => m.when === 'false')
      .map((m: { command: string }) => m.command);
    assert.deepEqual(hidden, [
      'complianceEvidence.openInBrowser',
      'complianceEvidence.showDetails',
      'complianceEvidence.compareSnapshots',
    ]);
    for (const item of contributes.menus['view/item/context']) assert.match(item.when, /viewItem =~ \//);
  });

  it('activates lazily and never on *, listing only what VS Code does not derive from contributes', () => {
    // VS Code >= 1.74 activates on every contributed command and view by itself (engines.vscode is
    // newer), so onCommand:/onView: entries would only repeat contributes. What stays is needed:
    // - workspaceContains for each document kind's default glob: the language server starts when
    //   a workspace holds such a file, so problems show as soon as one is opened, JSON kinds too;
    // - onLanguage:yaml: a YAML file of another name can declare its kind with a `# cev:` modeline.
    // (JSON kinds are matched by name only, so onLanguage:json would wake the extension for nothing.)
    assert.ok(!manifest.activationEvents.includes('*'));
    assert.deepEqual(
      manifest.activationEvents.filter((event: string) => /^on(Command|View):/.test(event)),
      [],
    );
    const expected = [
      ...Object.values(defaultFileGlobs)
        .flat()
        .map((glob) => `workspaceContains:${glob}`),
      'onLanguage:yaml',
    ];
    assert.deepEqual([...manifest.activationEvents].sort(), expected.sort());
    assert.match(
      manifest.engines.vscode,
      /^\^1\.(7[4-9]|[89]\d|\d{3,})\./,
      'derived activation needs VS Code 1.74 or newer',
    );
  });

  it('declares the settings, with file globs equal to the ones the client sends by default', () => {
    // Looked up by key: each setting is read as what every setting may declare.
    const properties: Record<string, { default?: unknown; enum?: readonly string[] } | undefined> =
      contributes.configuration.properties;
    for (const key of [
      'baseUrl',
      'baseUrlUs',
      'region',
      'customUrl',
      'org',
      'diagnostics.debounceMs',
      'diagnostics.maxProblems',
      'views.pollingInterval',
    ]) {
      assert.ok(properties[`complianceEvidence.${key}`], key);
    }
    assert.deepEqual(properties['complianceEvidence.region']?.enum, ['default', 'us']);
    for (const [key, globs] of Object.entries(defaultFileGlobs))
      assert.deepEqual(properties[`complianceEvidence.files.${key}`]?.default, globs, key);
  });

  it('injects the policy expression grammar into YAML', () => {
    assert.deepEqual(contributes.grammars, [
      {
        scopeName: 'policy-expression.injection',
        path: './syntaxes/policy-expression.injection.json',
        injectTo: ['source.yaml'],
      },
    ]);
  });

  it('welcomes the user for each connection state in both views', () => {
    for (const view of ['complianceEvidence.flows', 'complianceEvidence.environments']) {
      const whens = contributes.viewsWelcome
        .filter((w: { view: string }) => w.view === view)
        .map((w: { when: string }) => w.when)
        .join(' | ');
      for (const state of ['signedOut', 'unconfigured', 'unreachable', 'ready'])
        assert.match(whens, new RegExp(`connection == ${state}`), `${view} ${state}`);
    }
  });
});
