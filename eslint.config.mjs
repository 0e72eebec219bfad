// Lint: `npm run lint` (ESLint, then Prettier's check). README "Tooling" says what each rule is for.
import js from '@eslint/js';
import comments from '@eslint-community/eslint-plugin-eslint-comments/configs';
import prettier from 'eslint-config-prettier/flat';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const here = import.meta.dirname;

/** A feature uses another feature's service, never its repository (STYLE.md). An import that leaves its folder
 * (`../`) and names a `*.repository` file in another folder is refused; `./x.repository` and a parent's own
 * `../x.repository` stay allowed. */
const repositoryImports = {
  regex: String.raw`^(\.\./)+[^./][^/]*/(.*/)?[^/]+\.repository$`,
  message: "Another feature's repository: call that feature's service (STYLE.md: Other features use a feature's service, never its repository).",
};

/**
 * The layers of src (README "Tooling"), lowest first: an import may go down a layer or sideways
 * inside one, never up. The app (L5: app.module.ts, app.setup.ts, main.ts, console/) may import
 * anything. Specs are not checked: a test may drive a lower layer through a higher one.
 */
const layers = [
  'types config common',
  'database storage',
  'identity sharing',
  'indexer query search',
  'users groups sessions login tokens preferences dashboards library macros autoextractors templates playbooks pivots scheduledsearches files resources searchctrl searchhistory stats info notifications ingest ws',
  'app.module app.setup main console',
].map((names) => names.split(' '));

/**
 * One `files` block per folder of layers L0-L4 and per depth below src (`src/x/a.ts` climbs with
 * `../`, `src/x/y/a.ts` with `../../`, ...): the relative imports that reach a folder or file of a
 * higher layer are refused, together with `repositoryImports` (a block's rule options replace an
 * earlier block's, so each carries both).
 */
function layerImports() {
  const blocks = [];
  layers.slice(0, -1).forEach((folders, level) => {
    const higher = layers.slice(level + 1).flat();
    const target = higher.map((name) => name.replace('.', String.raw`\.`)).join('|');
    for (const folder of folders) {
      for (let depth = 1; depth <= 4; depth++) {
        blocks.push({
          files: [`src/${folder}/${'*/'.repeat(depth - 1)}*.ts`],
          ignores: ['src/**/*.spec.ts'],
          rules: {
            'no-restricted-imports': [
              'error',
              {
                patterns: [
                  repositoryImports,
                  {
                    regex: String.raw`^(\.\./){${depth}}(${target})(/|$)`,
                    message: `An import up a layer: src/${folder} is in L${level} and imports only L0-L${level} (README "Tooling": move what it needs down, or let the higher layer provide it through an interface and an injection token).`,
                  },
                ],
              },
            ],
          },
        });
      }
    }
  });
  return blocks;
}

/** Type-aware rules that pay for the type information: promises nobody awaits, async callbacks where a
 * void one is expected, and switches over unions that forget a member. */
const typeAwareRules = {
  '@typescript-eslint/no-floating-promises': 'error',
  '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
  '@typescript-eslint/await-thenable': 'error',
  '@typescript-eslint/only-throw-error': 'error',
  '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
};

export default defineConfig(
  globalIgnores(['**/dist/**', '**/node_modules/**', 'coverage/**', 'data/**', 'bench/**', 'docs/**', 'test/browser/screenshots/**']),
  {
    linterOptions: { reportUnusedDisableDirectives: 'error', reportUnusedInlineConfigs: 'error' },
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  comments.recommended,
  {
    rules: {
      // Every eslint-disable says why, on the same line: `// eslint-disable-line rule -- reason`.
      '@eslint-community/eslint-comments/require-description': ['error', { ignore: [] }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': 'error',
      // Input validation matches control characters on purpose (names, tags, lookup tables).
      'no-control-regex': 'off',
    },
  },
  // The service and its tests: one TypeScript program (tsconfig.eslint.json) for the type-aware rules.
  {
    files: ['src/**/*.ts', 'test/**/*.ts'],
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { project: ['./tsconfig.eslint.json'], tsconfigRootDir: here },
    },
    rules: typeAwareRules,
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [repositoryImports] }],
      // Configuration is read and validated in one place (src/config); main.ts hands it process.env.
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration through AppConfig (src/config), validated at start-up.' }],
    },
  },
  ...layerImports(),
  {
    files: ['src/config/**/*.ts', 'src/main.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
  // Tests read untyped JSON bodies and build hostile input on purpose.
  {
    files: ['test/**/*.ts', 'src/**/*.spec.ts', 'web/src/**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  // CommonJS helpers of the test runners (jest configs, reporters, the soak attacker).
  {
    files: ['**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // The web console: a browser program with React's rules of hooks, typed by web/tsconfig.eslint.json. The
  // plugin's React Compiler rules (refs, purity, set-state-in-effect ...) are left out: the console is not
  // compiled with React Compiler.
  {
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: {
      globals: { ...globals.browser },
      parserOptions: { project: ['./web/tsconfig.eslint.json'], tsconfigRootDir: here },
    },
    rules: { ...typeAwareRules, 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    files: ['web/scripts/**/*.mjs'],
    languageOptions: { globals: { ...globals.node } },
  },
  // Last: formatting belongs to Prettier, so the rules it would fight are off.
  prettier,
);
