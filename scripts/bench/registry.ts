/**
 * The bench's phases, in the order they run and their rows print. A new phase is one
 * module under phases/ and one entry here: --only, --help and the table follow.
 */
import type { BenchPhase } from './phase.js';
import { concurrency, oneRepo, r200 } from './phases/concurrency.js';
import { floor } from './phases/floor.js';
import { history } from './phases/history.js';
import { long } from './phases/long.js';
import { overhead } from './phases/overhead.js';
import { ratio } from './phases/ratio.js';
import { resume } from './phases/resume.js';
import { setup } from './phases/setup.js';
import { size } from './phases/size.js';
import { tokens } from './phases/tokens.js';

export const PHASES = [
  floor,
  overhead,
  ratio,
  history,
  concurrency,
  oneRepo,
  r200,
  resume,
  size,
  setup,
  long,
  tokens,
] as const satisfies readonly BenchPhase[];
