import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'docs/api/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/redis/**', 'src/_internal/loadOptional.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'ioredis', message: 'Only src/redis/ may import ioredis.', allowTypeImports: true },
            {
              name: 'xstate',
              message: 'Load xstate through the lazy loader (src/_internal/loadOptional.ts).',
              allowTypeImports: true,
            },
            {
              name: 'jose',
              message: 'Load jose through the lazy loader (src/_internal/loadOptional.ts).',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
);
