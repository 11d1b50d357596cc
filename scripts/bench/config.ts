/**
 * The bench's sizes (steps, repetitions, runs, model latency), full or --quick. Several
 * phases share them: the floor measures as many steps as the overhead runs.
 */

export interface Config {
  readonly quick: boolean;
  readonly overheadSteps: number;
  readonly overheadLatencyMs: number;
  readonly overheadReps: number;
  readonly floorReps: number;
  readonly ratioSteps: number;
  readonly ratioReps: number;
  readonly historySteps: readonly [number, number];
  readonly concurrentRuns: number;
  readonly concurrentSteps: number;
  readonly concurrentLatencyMs: number;
}

export function benchConfig(quick: boolean): Config {
  return quick
    ? {
        quick,
        overheadSteps: 20,
        overheadLatencyMs: 100,
        overheadReps: 1,
        floorReps: 3,
        ratioSteps: 20,
        ratioReps: 1,
        historySteps: [4, 8],
        concurrentRuns: 50,
        concurrentSteps: 4,
        concurrentLatencyMs: 500,
      }
    : {
        quick,
        overheadSteps: 24,
        overheadLatencyMs: 100,
        overheadReps: 3,
        floorReps: 5,
        ratioSteps: 20,
        ratioReps: 2,
        historySteps: [4, 12],
        concurrentRuns: 50,
        concurrentSteps: 5,
        concurrentLatencyMs: 500,
      };
}
