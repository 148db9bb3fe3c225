// What decides what a checker reports, protected like test configuration: a model that loosens a rule, excludes a
// folder or turns a lint off makes the checker quiet without the code being right. Whole files are protected by
// glob; shared files (pyproject.toml, Cargo.toml, setup.cfg, package.json) only in the parts that configure a
// checker, so the rest of them stays editable. Plain data and pure functions, no imports.

/** A file that exists only to configure a checker (in any folder), and the checker it configures. */
export interface CheckerConfigFile {
  glob: string;
  /** As a person names the checker ("ESLint", "mypy", "clippy"). */
  tool: string;
}

/**
 * Files that exist only to configure a checker. tsconfig/jsconfig are TYPE_CHECK_PROTECTED_GLOBS (shared/config.ts);
 * add those too when a check reads them (typescript-eslint's typed rules do).
 */
export const CHECKER_CONFIG_FILES: readonly CheckerConfigFile[] = [
  // ESLint, Biome, oxlint
  { glob: '**/eslint.config.*', tool: 'ESLint' },
  { glob: '**/.eslintrc', tool: 'ESLint' },
  { glob: '**/.eslintrc.*', tool: 'ESLint' },
  { glob: '**/.eslintignore', tool: 'ESLint' },
  { glob: '**/biome.json', tool: 'Biome' },
  { glob: '**/biome.jsonc', tool: 'Biome' },
  { glob: '**/.oxlintrc.json', tool: 'oxlint' },
  { glob: '**/oxlintrc.json', tool: 'oxlint' },
  { glob: '**/.oxlintignore', tool: 'oxlint' },
  // Python
  { glob: '**/pyrightconfig.json', tool: 'pyright' },
  { glob: '**/mypy.ini', tool: 'mypy' },
  { glob: '**/.mypy.ini', tool: 'mypy' },
  { glob: '**/.pylintrc', tool: 'pylint' },
  { glob: '**/pylintrc', tool: 'pylint' },
  { glob: '**/.flake8', tool: 'flake8' },
  { glob: '**/ruff.toml', tool: 'Ruff' },
  { glob: '**/.ruff.toml', tool: 'Ruff' },
  // Go
  { glob: '**/.golangci.*', tool: 'golangci-lint' },
  { glob: '**/staticcheck.conf', tool: 'staticcheck' },
  // Rust: clippy's settings, and cargo's config, where `rustflags = ["-A", "warnings"]` silences everything
  { glob: '**/clippy.toml', tool: 'clippy' },
  { glob: '**/.clippy.toml', tool: 'clippy' },
  { glob: '**/.cargo/config', tool: 'cargo' },
  { glob: '**/.cargo/config.toml', tool: 'cargo' },
  // TypeScript, when the type check or a check reads them (TYPE_CHECK_PROTECTED_GLOBS)
  { glob: '**/tsconfig*.json', tool: 'tsc' },
  { glob: '**/jsconfig*.json', tool: 'tsc' },
];

/** The checker configuration files protected by default (tsconfig/jsconfig only with the type check: see above). */
export const CHECKER_CONFIG_GLOBS: readonly string[] = CHECKER_CONFIG_FILES.filter((f) => f.tool !== 'tsc').map((f) => f.glob);

/** A checker's part of a shared INI/TOML file: the sections whose header matches `sections`. */
export interface CheckerSectionRule {
  /** File name, in any folder. */
  file: string;
  /** Section names as base/iniSections reads them ("tool.mypy", "tool.mypy.overrides", "lints.clippy"). */
  sections: RegExp;
  /** For the refusal: "the [tool.mypy] … sections of pyproject.toml". */
  what: string;
}

export const CHECKER_SECTION_RULES: readonly CheckerSectionRule[] = [
  {
    file: 'pyproject.toml',
    sections: /^tool\.(?:mypy|pyright|basedpyright|pylint|ruff|flake8)(?:\.|$)/,
    what: 'the checker sections of pyproject.toml ([tool.mypy], [tool.pyright], [tool.pylint], [tool.ruff])',
  },
  { file: 'setup.cfg', sections: /^(?:mypy(?:-.*)?|flake8|pylint(?:\..*)?)$/, what: 'the [mypy], [flake8] and [pylint] sections of setup.cfg' },
  { file: 'tox.ini', sections: /^(?:mypy(?:-.*)?|flake8)$/, what: 'the [mypy] and [flake8] sections of tox.ini' },
  { file: 'Cargo.toml', sections: /^(?:workspace\.)?lints(?:\.|$)/, what: 'the [lints] sections of Cargo.toml' },
];

// `npm run lint`, `npm lint` (built-ins aside), `yarn lint`, `pnpm run lint`, `bun run lint`.
const SCRIPT_RUN = /(?:^|[;&|]\s*|\s)(?:npm|pnpm|yarn|bun)\s+(?:run(?:-script)?\s+(?:-\S+\s+)*)?([\w:.@/-]+)/g;
const PACKAGE_MANAGER_COMMANDS = new Set([
  'install', 'i', 'ci', 'add', 'remove', 'exec', 'x', 'dlx', 'create', 'init', 'publish', 'pack', 'link', 'update', 'audit', 'run', 'run-script', 'why', 'list', 'ls',
]);

/** The package.json scripts a set of check commands run, so their definitions can be protected too. */
export function scriptsNamedBy(commands: readonly string[]): string[] {
  const names = new Set<string>();
  for (const command of commands) {
    for (const m of command.matchAll(SCRIPT_RUN)) {
      const name = m[1];
      if (name.startsWith('-') || PACKAGE_MANAGER_COMMANDS.has(name)) continue;
      names.add(name);
      // npm runs pre<name> and post<name> around it.
      names.add(`pre${name}`);
      names.add(`post${name}`);
    }
  }
  return [...names].sort();
}

/**
 * The named scripts of a package.json as a comparable string, or null when the text is not a JSON object (a file
 * the package manager would not read either). Used like protectedContent's parts: a change in it is refused.
 */
export function packageScriptsPart(text: string, names: readonly string[]): string | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) return null;
  const scripts = (json as Record<string, unknown>).scripts;
  const table = scripts && typeof scripts === 'object' ? (scripts as Record<string, unknown>) : {};
  return JSON.stringify([...names].sort().map((n) => [n, table[n] ?? null]));
}
