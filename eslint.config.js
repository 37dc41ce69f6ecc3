// Lint: TypeScript and React hooks rules. The layers and cycles are dependency-cruiser's
// (.dependency-cruiser.cjs), the formatting prettier's; npm run lint runs all three.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'tests/bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: { ...globals.node, ...globals.browser },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Unused names are mistakes, except what a rest pattern leaves out on purpose or starts with _.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { ignoreRestSiblings: true, argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // The async mistakes only types can show: a promise nobody awaits or catches (its rejection is
    // lost, or crashes the process), a promise where a void callback or a condition is expected
    // (an async onClick, `if (promise)`), an await on something that is not a promise. These rules
    // need the program's types: the project service reads tsconfig.json, the one program of server,
    // sandbox, web and tests (typecheck's), so the files are checked with the types tsc sees.
    files: ['**/*.{ts,tsx}'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    // The UI's React code; the tests' useHarness() is a suite helper, not a hook.
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // Loaded with the login page: the contract's index would bring every screen's validation code
    // into the first load, so these import the contract modules they need by name.
    files: ['web/app/*.ts', 'web/app/*.tsx', 'web/api/**', 'web/lib/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^#contract$|server/contract/index\\.js$)',
              message:
                'Import the contract module you need (gateway, calls, permissions...), not its index: this code loads with the login page.',
            },
          ],
        },
      ],
    },
  },
);
