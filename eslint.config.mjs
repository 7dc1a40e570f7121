// ESLint for the JupyterLab renderer (labextension/), with the rules of the JupyterLab extension
// template (interfaces named I*, curly, eqeqeq, single quotes); prettier owns the layout.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'lib/', 'kernel_ext/labextension/', 'labextension/src/schema.ts', '.venv/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    files: ['labextension/**/*.ts'],
    rules: {
      '@typescript-eslint/naming-convention': [
        'error',
        { selector: 'interface', format: ['PascalCase'], custom: { regex: '^I[A-Z]', match: true } }
      ],
      '@typescript-eslint/no-unused-vars': ['error', { args: 'none' }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-namespace': 'off', // JupyterLab's idiom: module-private helpers in `namespace Private`
      curly: ['error', 'all'],
      eqeqeq: 'error',
      quotes: ['error', 'single', { avoidEscape: true, allowTemplateLiterals: false }]
    }
  },
  {
    files: ['labextension/scripts/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } }
  }
);
