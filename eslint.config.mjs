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
    // Findings of these rules are still in the tree (counts from `npm run lint` on the branch
    // that added lint); they report as warnings until fixed, every other rule, no-floating-promises and
    // no-misused-promises included, fails `npm test`. Fix a rule's findings, then delete its line.
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'warn', // 936, most on `any` API answers in test/
      '@typescript-eslint/no-unsafe-assignment': 'warn', // 217
      '@typescript-eslint/no-unsafe-call': 'warn', // 141
      '@typescript-eslint/no-unsafe-argument': 'warn', // 79
      '@typescript-eslint/no-unsafe-return': 'warn', // 50
      '@typescript-eslint/no-explicit-any': 'warn', // 46
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
