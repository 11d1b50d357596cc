/**
 * The dirs of the environment phase, as types: the shared caches and a worktree's own
 * (activities/environment/cache-layout.ts makes them). Here so that an ecosystem module
 * (definition/ecosystems/) can name the caches its setup fills and its sandbox reads.
 */
export interface CacheLayout {
  readonly root: string;
  readonly npm: string;
  readonly pnpmStore: string;
  readonly yarnClassic: string;
  readonly yarnBerry: string;
  readonly bun: string;
  readonly pip: string;
  readonly uv: string;
  /** POETRY_CACHE_DIR: Poetry's downloads and wheels. */
  readonly poetry: string;
  /** PDM_CACHE_DIR: PDM's downloads, wheels and package cache. */
  readonly pdm: string;
  readonly goMod: string;
  /** Go build cache of this repository (warmed by setup, copied for each worktree). */
  readonly goBuild: string;
  readonly cargoHome: string;
  /** MAVEN_USER_HOME: a wrapper's Maven distributions; the local repository is under it. */
  readonly maven: string;
  readonly mavenRepo: string;
  /** Fetched package managers: `<tools>/<name>-<version>`. */
  readonly tools: string;
  /** Shared stamps: `<stamps>/<key>` = a cache holds this repository+lockfile. */
  readonly stamps: string;
}

export interface WorktreeLayout {
  readonly dir: string;
  readonly venv: string;
  readonly goCache: string;
  /** The validators' own GOCACHE, seeded like the agent's (tools/validator-view.ts). */
  readonly validatorGoCache: string;
  readonly setupHome: string;
  readonly stamps: string;
}
