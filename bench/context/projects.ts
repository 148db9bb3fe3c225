// The real projects bench:context draws mutants in, chosen before anything was measured and without looking at how
// Greenloop ranks their code: each a small library with no runtime dependency and its own test suite that runs here
// offline, pinned at the commit its fetched GitHub mirror held (GREENLOOP_BENCH_MIRRORS moves where mirrors are looked
// for). None is a project an earlier context bench or issue 31/40 names. The choice and why: docs/benchmarks.md.
export type Language = 'JavaScript' | 'TypeScript' | 'Python' | 'Go' | 'Rust' | 'Java' | 'C' | 'Ruby';

/** How the bench finds the functions a suite covers: real line coverage, or (none) every function, named as such. */
export type CoverageKind = 'v8' | 'python' | 'go' | 'none';

export interface Project {
  name: string;
  language: Language;
  /** owner/name on GitHub. */
  repo: string;
  commit: string;
  /** The npm runner (test/fixtures/targeted/install-runners.sh) linked in as node_modules. */
  runner?: 'mocha' | 'vitest';
  /** npm packages the project's own configuration loads (beside the runner), installed once into the cache. */
  packages?: readonly string[];
  /** As `--test-cmd` gets it; the same command decides whether a mutant is seen. */
  testCmd: string;
  /** Folders (or files) of non-test source, relative to the root. */
  sources: readonly string[];
  /** A path matching this is a test or a fixture, never a mutant's home. */
  tests: RegExp;
  coverage: CoverageKind;
  /**
   * A set-up step run once on the pristine tree and committed with it, only what running offline needs: a Cargo.toml
   * without its benches' dev-dependencies, a pom against Debian's Maven repository, a suite without the golden files.
   */
  setup?: string;
  /** Mutants kept (seen by a test) at most, for a project whose every run costs a JVM start or a minute. */
  mutants?: number;
}

const TESTS = /(^|\/)(tests?|spec|__tests__|testdata|fixtures?|benchmarks?|examples?|fuzzing|unity)(\/|$)|[._-](test|spec|bench)\.|_test\.go$|(^|\/)test_[^/]*\.py$|Test\.java$/;

// The Maven project commons-cli's tests build with: Debian's JUnit 5, commons-lang3 and commons-text, Surefire 2.22.3.
const CLI_POM = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
<groupId>bench</groupId><artifactId>commons-cli</artifactId><version>0</version>
<properties><project.build.sourceEncoding>UTF-8</project.build.sourceEncoding><maven.compiler.release>17</maven.compiler.release></properties>
<dependencies>
${['junit-jupiter-api', 'junit-jupiter-params', 'junit-jupiter-engine'].map((a) => `<dependency><groupId>org.junit.jupiter</groupId><artifactId>${a}</artifactId><version>5.9.2</version><scope>test</scope></dependency>`).join('\n')}
<dependency><groupId>org.apache.commons</groupId><artifactId>commons-lang3</artifactId><version>3.12.0</version><scope>test</scope></dependency>
<dependency><groupId>org.apache.commons</groupId><artifactId>commons-text</artifactId><version>1.10.0</version><scope>test</scope></dependency>
</dependencies>
<build><plugins>
<plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-resources-plugin</artifactId><version>3.3.0</version></plugin>
<plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.10.1</version></plugin>
<plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-surefire-plugin</artifactId><version>2.22.3</version></plugin>
</plugins></build></project>
`;

const PY = '/usr/bin/python3';

export const PROJECTS: readonly Project[] = [
  { name: 'range-parser', language: 'JavaScript', repo: 'jshttp/range-parser', commit: 'b49e00f6d3c51f3a417fe8da5ed63c0af7621450', runner: 'mocha', packages: ['deep-equal@1.0.1'], testCmd: 'node_modules/.bin/mocha --reporter spec', sources: ['index.js'], tests: TESTS, coverage: 'v8' },
  { name: 'defu', language: 'TypeScript', repo: 'unjs/defu', commit: '80c0146afb11ebd86183a579ec469f3abd976695', runner: 'vitest', testCmd: 'node_modules/.bin/vitest run', sources: ['src'], tests: TESTS, coverage: 'none' },
  { name: 'scule', language: 'TypeScript', repo: 'unjs/scule', commit: '8f56148d820ed5aa93ff71f33566fcae5edfef0e', runner: 'vitest', testCmd: 'node_modules/.bin/vitest run', sources: ['src'], tests: TESTS, coverage: 'none' },
  { name: 'content-type', language: 'TypeScript', repo: 'jshttp/content-type', commit: '04b9688ca0f574603e11e81ac4d7fc2fbf9008de', runner: 'vitest', packages: ['@borderless/ts-scripts@0.15.0'], testCmd: 'node_modules/.bin/vitest run', sources: ['src'], tests: TESTS, coverage: 'none' },
  { name: 'tomli', language: 'Python', repo: 'hukkin/tomli', commit: '920e20b1cf495b63f6d4a6aa3cd5e4ff25f5f5a7', testCmd: `PYTHONPATH=src ${PY} -m pytest -v -p no:cacheprovider tests`, sources: ['src'], tests: TESTS, coverage: 'python' },
  { name: 'boltons', language: 'Python', repo: 'mahmoud/boltons', commit: '967864f89791509f9eb36b22b4579d36b72a6df2', testCmd: `${PY} -m pytest -v -p no:cacheprovider tests`, sources: ['boltons'], tests: TESTS, coverage: 'python' },
  { name: 'uuid', language: 'Go', repo: 'google/uuid', commit: '2d3c2a9cc518326daf99a383f07c4d3c44317e4d', testCmd: 'go test -v ./...', sources: ['.'], tests: TESTS, coverage: 'go' },
  // Its expirable package's tests and example wait on timers a busy machine outruns (ExampleLRU, then TestLoadingExpired
  // failed on the pristine tree at load 9): the packages without timers only, so no verdict depends on the load.
  { name: 'golang-lru', language: 'Go', repo: 'hashicorp/golang-lru', commit: '5dd697da12cfd1af9605fbf9968cac4104eb1788', testCmd: 'go test -v . ./internal ./simplelru', sources: ['.'], tests: TESTS, coverage: 'go' },
  {
    name: 'dissimilar', language: 'Rust', repo: 'dtolnay/dissimilar', commit: 'a4e3cb224d9099ec92d7c94b1204a1ccb69795da', testCmd: 'cargo test --offline', sources: ['src'], tests: TESTS, coverage: 'none',
    // Its only dev-dependency (criterion) serves the benches; offline, crates.io is out of reach.
    setup: `python3 - <<'PY'\nimport re\ns = open('Cargo.toml').read()\ns = re.sub(r"\\[target\\.'cfg\\(not\\(miri\\)\\)'\\.dev-dependencies\\]\\n[^\\[]*", '', s)\ns = re.sub(r'\\[\\[bench\\]\\]\\n[^\\[]*', '', s)\nopen('Cargo.toml', 'w').write(s)\nPY\nrm -rf benches`,
  },
  {
    name: 'commons-cli', language: 'Java', repo: 'apache/commons-cli', commit: '0a68ae0e826bb08eb59bda9bae7ec5d84008b62a', testCmd: 'mvn -B test', sources: ['src/main/java'], tests: TESTS, coverage: 'none', mutants: 8,
    // Offline against Debian's Maven repository: its own pom's parent and plugins are not there; the test files that
    // need a library Debian lacks (commons-io, junit-pioneer) or Mockito (HelpFormatterTest; not installed with the bench's Maven packages) are left out, and OptionTest, which
    // uses a left-out test's helper (TypeHandlerTest).
    setup: `cat > pom.xml <<'POM'\n${CLI_POM}POM\nmkdir -p .mvn && printf -- '-o\\n-s\\n/etc/maven/settings-debian.xml\\n' > .mvn/maven.config\ngrep -rlE 'org\\.apache\\.commons\\.io|junitpioneer|org\\.mockito|TypeHandlerTest\\.' src/test | xargs -r rm`,
  },
  {
    name: 'cJSON', language: 'C', repo: 'DaveGamble/cJSON', commit: 'a29814f285cc531c00223743ad3c55cd38c0dc56', sources: ['cJSON.c', 'cJSON_Utils.c'], tests: TESTS, coverage: 'none',
    testCmd: 'cmake -S . -B build -DENABLE_CJSON_TEST=On -DENABLE_VALGRIND=Off >/dev/null && cmake --build build -j2 >/dev/null && ctest --test-dir build --output-on-failure',
  },
  // test_ractor needs ruby's own assert_ractor helper (ruby's core test suite), which test-unit on Debian's Ruby 3.1 lacks: left out by name.
  { name: 'matrix', language: 'Ruby', repo: 'ruby/matrix', commit: 'ff328a3fc831acfbd8defd72a3276ca8757a83b5', testCmd: `ruby -Ilib -Itest/lib -e 'Dir.glob("test/**/test_*.rb").sort.each { |f| require File.expand_path(f) }' -- --ignore-name=test_ractor`, sources: ['lib'], tests: TESTS, coverage: 'none' },
  {
    name: 'pygments', language: 'Python', repo: 'pygments/pygments', commit: '6a62df1d1fc77af7e9fc61325ef376297cadffbb', testCmd: `${PY} -m pytest -v -p no:cacheprovider tests --ignore=tests/examplefiles --ignore=tests/snippets`, sources: ['pygments'], tests: TESTS, coverage: 'python', mutants: 8,
    // Its golden-file folders (examplefiles, snippets) take two of its three minutes here: not walked into (test_basic_api
    // and test_guess still read their files). tests/contrast needs a package Debian lacks. 3,821 tests pass on the
    // pristine tree in 113 s at load 6.
    setup: 'rm -rf tests/contrast',
  },
];
