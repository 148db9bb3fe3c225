// The toolchains a test drives for real, installed where missing by scripts/toolchains.sh (Debian's packages by name,
// the npm checkers into their cache). A test that needs one asks for it first; if it cannot be had, the test fails
// with the tool's name and the package it needs — never a skip that reads as a pass on a machine without it.
import { spawnSync } from 'child_process';
import * as path from 'path';
import { ROOT } from './cli';

export type Toolchain =
  | 'mypy' | 'pylint' | 'go' | 'gcc' | 'cargo' | 'clippy' | 'python3-pytest' | 'python3-coverage'
  | 'cmake' | 'g++' | 'gtest' | 'catch2' | 'maven'
  | 'eslint' | 'biome' | 'oxlint' | 'pyright'
  | 'ruby-rspec' | 'ruby-minitest' | 'rake' | 'ruby-rspec-junit-formatter' | 'ruby-test-unit' | 'php' | 'phpunit'
  | 'clang-tidy' | 'clang-format' | 'rubocop' | 'checkstyle' | 'phpcs';

const ready = new Set<Toolchain>();

/** Installs each tool that is missing; throws, naming them, when that fails. Asked again in one process, it is free. */
export function needToolchain(...tools: Toolchain[]): void {
  const wanted = tools.filter((t) => !ready.has(t));
  if (!wanted.length) return;
  const r = spawnSync('bash', [path.join(ROOT, 'scripts', 'toolchains.sh'), ...wanted], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) {
    const said = `${r.stderr ?? ''}`.trim().split('\n').filter(Boolean).slice(-3).join(' ');
    throw new Error(`This test needs ${wanted.join(', ')}, which scripts/toolchains.sh could not install: ${said || `exit ${r.status}`}`);
  }
  wanted.forEach((t) => ready.add(t));
}

/** The toolchain behind a program or npm checker a test names (`cargo-clippy`, `gofmt`, `{ npm: 'eslint' }`). */
export function toolchainOf(needs: { npm: string } | { program: string }): Toolchain {
  const name = 'npm' in needs ? needs.npm : needs.program;
  const known: Record<string, Toolchain> = { 'cargo-clippy': 'clippy', gofmt: 'go', 'go vet': 'go' };
  return known[name] ?? (name as Toolchain);
}
