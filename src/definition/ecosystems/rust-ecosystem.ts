/** Rust: `cargo test` (every workspace member to the end: repo-config/cargo-test-command.ts); setup `cargo fetch`. */
import { cargoTestCommand } from '../repo-config/cargo-test-command.js';
import { EcosystemId, readRepoFile, type EcosystemModule } from './ecosystem.js';

export const RUST_ECOSYSTEM: EcosystemModule = {
  id: EcosystemId.Rust,
  docPage: 'rust.md',
  setupInputs: ['Cargo.toml', 'Cargo.lock'],
  testCommand: async (dir) => {
    const cargo = await readRepoFile(dir, 'Cargo.toml');
    if (cargo === undefined) return undefined;
    const test = cargoTestCommand(cargo);
    return { commands: { test: test.command }, reasons: [`test: ${test.command} (${test.why})`] };
  },
  unrecoverable: [
    {
      match: /^error: could not find `Cargo\.toml`/m,
      reason: 'cargo cannot find Cargo.toml; fix the validator command or its directory',
    },
    {
      match: /^error: no such command: `[^`]+`/m,
      reason: 'cargo has no such subcommand; install it or fix the validator command',
    },
  ],
};
