/**
 * The test command of a Rust project. PURE.
 *
 * `--no-fail-fast`: without it cargo stops at the first test binary that fails, so the
 * failures of later files (often the issue's own test) are never seen.
 *
 * `--workspace` when Cargo.toml has a `[workspace]` table: in a workspace whose root is
 * also a package, plain `cargo test` tests the root package alone and every member crate's
 * tests are silently left out (measured with cargo 1.95). In a virtual workspace it makes
 * no difference unless `default-members` narrows it; there every member is tested too, as
 * CI usually does. Each failure is then named with its crate's file (`crates/beta/src/lib.rs`,
 * from the panic line, which cargo prints relative to the workspace root).
 */

export interface CargoTest {
  readonly command: string;
  readonly why: string;
}

/** A `[workspace]` table, or one of its subtables (`[workspace.dependencies]` alone makes a workspace too). */
const WORKSPACE_TABLE = /^\s*\[workspace(\.[\w-]+)?\]\s*(#.*)?$/m;

export function cargoTestCommand(cargoToml: string): CargoTest {
  if (WORKSPACE_TABLE.test(cargoToml))
    return {
      command: 'cargo test --workspace --no-fail-fast',
      why: 'Cargo.toml [workspace]; every member crate and every test binary runs, a failing one hides no other',
    };
  return {
    command: 'cargo test --no-fail-fast',
    why: 'Cargo.toml; every test binary runs, a failing one hides no other',
  };
}
