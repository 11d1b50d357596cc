/**
 * Rust: setup `cargo fetch` into the shared CARGO_HOME (`--locked` with a Cargo.lock); in
 * the sandbox cargo's home is read-only and offline; `cargo test` runs every workspace
 * member to the end (repo-config/cargo-test-command.ts).
 */
import { cargoTestCommand } from '../repo-config/cargo-test-command.js';
import { Ecosystem } from '../../contracts/environment.js';
import { EcosystemId, readRepoFile, type EcosystemModule } from './ecosystem.js';
import { CARGO_TEST } from './test-runners/cargo-test.js';

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
  setupEnv: (caches) => ({ CARGO_HOME: caches.cargoHome }),
  homeToolchains: [['RUSTUP_HOME', '.rustup']],
  setup: async (dir, caches) => {
    if ((await readRepoFile(dir, 'Cargo.toml')) === undefined) return undefined;
    const lock = (await readRepoFile(dir, 'Cargo.lock')) !== undefined ? ['Cargo.lock'] : [];
    return {
      detected: `rust: cargo fetch (Cargo.toml${lock.length ? ', Cargo.lock' : ''})`,
      ecosystem: Ecosystem.Rust,
      steps: [
        {
          id: 'cargo-fetch',
          command: `cargo fetch${lock.length ? ' --locked' : ''}`,
          reason: 'rust: cargo fetch (Cargo.toml)',
          inputs: ['Cargo.toml', ...lock],
          caches: [`CARGO_HOME ${caches.cargoHome}`],
        },
      ],
      sandbox: { env: { CARGO_HOME: caches.cargoHome, CARGO_NET_OFFLINE: 'true' }, readOnlyDirs: [caches.cargoHome] },
    };
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
  testRunners: [CARGO_TEST],
  buildOutputs: { markers: ['Cargo.toml'], patterns: [{ pattern: '/target/', probe: 'target/' }] },
};
