// One lint for all code (`npm run lint`, part of `npm test`): ESLint's and typescript-eslint's
// recommended rules, the TypeScript ones type-aware (no-floating-promises, no-misused-promises and
// the rest of recommendedTypeChecked), which need the TypeScript API: `typescript` is TypeScript 6's
// API package while `tsc` is TypeScript 7's native compiler (@typescript/native), side by side as
// TypeScript 7's release notes describe, until typescript-eslint reads TypeScript 7 itself.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  // What git ignores: built, installed or written by runs.
  {
    ignores: [
      'dist/',
      '**/node_modules/',
      'test/e2e/.cache/',
      'test-output/',
      'quickstart/',
      '.cev-data/',
      'test/contract/.venv/',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    // As TypeScript's noUnusedLocals reads it: a leading underscore marks a binding kept unused on purpose.
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  {
    // Plain JavaScript scripts (build and test runners) are outside the TypeScript project.
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },
  {
    // Functions of these that are passed to the browser run in the page, not in Node.
    files: ['test/e2e/runner/workbench.mjs', 'test/e2e/runner/driver.mjs'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
);
