// ESLint flat config: typescript-eslint's recommended rules, formatting left to Prettier.
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'docs/api/**'] },
  ...tseslint.configs.recommended,
  prettier,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-unsafe-function-type': 'off',
      '@typescript-eslint/no-empty-object-type': 'off',
      'no-restricted-syntax': [
        'error',
        {
          selector: "ThrowStatement > NewExpression[callee.name='Error']",
          message: 'Throw a ProtolinkError subclass.',
        },
      ],
    },
  },
  {
    // Lazily loaded modules (lib/runtime/lazy-require.ts) are required with a literal id, so that bundlers
    // (esbuild, webpack) see and keep them: our own modules by relative path and the few packages loaded on
    // first use. A computed id (`require(variable)`, a template with a value, a path joined to __dirname) is
    // still an error here, and is left to the two places that load a module that is not part of protolink: the
    // CLI's user module (lib/cli/load-tool-module.ts) and typescript-json-schema's own TypeScript.
    files: ['lib/**'],
    rules: {
      '@typescript-eslint/no-require-imports': [
        'error',
        {
          allow: [
            '^\\.\\.?/',
            '^(axios|htmlparser2|yaml|ajv|ajv-formats|ajv-formats/dist/formats|re2js|node:crypto|@opentelemetry/api|ts-node|typescript-json-schema)$',
          ],
        },
      ],
    },
  },
  {
    files: ['spec/**', 'bench/**', 'samples/**'],
    rules: { 'no-restricted-syntax': 'off', '@typescript-eslint/no-require-imports': 'off' },
  },
);
