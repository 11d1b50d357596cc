/**
 * One command validator's result: the command run in the sandbox (with its test reports
 * collected when it runs tests), its successWhen rule, and for a test command the
 * baseline's judgement and the check that the tests still ran as on the base.
 *
 * A test command's exit status alone does not pass it: when the runner names failing tests
 * in the output or its reports while the command exits as a pass (a script ending in
 * `|| true`, `-Dmaven.test.failure.ignore`), those failures are judged as a failing run's
 * would be, against the baseline, and never told as fixed (test-reports/failing-now.ts).
 */
import type { ConditionResult } from '../../contracts/activities.js';
import type { ConditionRef, ValidatorDefinition } from '../../contracts/definition.js';
import type { PreExistingClaim } from '../../contracts/pre-existing-claims.js';
import { extractParams } from './extractors.js';
import { runsTests } from './test-reports/runs-tests.js';
import { judgeAgainstBaseline } from './baseline/judge-against-baseline.js';
import { testsNotRunResult, testsRanSinceBase } from './baseline/tests-ran-since-base.js';
import { parseTestFailures } from './test-reports/parse-test-failures.js';
import { runCollectingReports } from './test-reports/report-files.js';
import { failingNow } from './test-reports/failing-now.js';
import { commandSummary, fullOutput } from './summarize.js';
import { describeRule, parseSuccessWhen, satisfies } from './success-when.js';
import { substituteParams } from './substitute-params.js';
import { unrecoverableReason } from './unrecoverable.js';
import type { BaseCommits } from './base-commit.js';
import type { RunValidatorsDeps } from './run-validators.js';

const DEFAULT_VALIDATOR_TIMEOUT_MS = 10 * 60 * 1000;

export async function runCommandValidator(options: {
  deps: RunValidatorsDeps;
  worktreePath: string;
  bases: BaseCommits;
  issueText?: string;
  issueLabels?: readonly string[];
  claims?: readonly PreExistingClaim[];
  condition: ConditionRef;
  definition: Extract<ValidatorDefinition, { type: 'command' }>;
}): Promise<ConditionResult> {
  const { deps, condition, definition } = options;
  const command = substituteParams(definition.command, condition.params);
  const request = {
    command,
    cwd: options.worktreePath,
    timeoutMs: definition.timeoutMs ?? DEFAULT_VALIDATOR_TIMEOUT_MS,
    ...(deps.signal ? { signal: deps.signal } : {}),
  };
  const { outcome, reports } = runsTests(definition)
    ? await runCollectingReports(deps.commands, request)
    : { outcome: await deps.commands.run(request), reports: {} };
  const failures = runsTests(definition) ? parseTestFailures(`${outcome.stdout}\n${outcome.stderr}`, reports) : [];
  const output = deps.saveOutput ? await deps.saveOutput(fullOutput(command, outcome)) : undefined;
  const base = { validator: condition.validator, command, ...(output ? { output } : {}) };
  const failurePattern = definition.failurePattern === undefined ? {} : { failurePattern: definition.failurePattern };

  if (outcome.kind !== 'exited' || outcome.exitCode === undefined) {
    const ended = outcome.error ?? outcome.kind;
    return {
      ...base,
      ...failurePattern,
      passed: false,
      summary: commandSummary({ command, ended, stdout: outcome.stdout, stderr: outcome.stderr, failures }),
      params: {
        ...condition.params,
        ...extractParams(definition.extractParams, { ...outcome, exitCode: null, reports }),
      },
      // A command that cannot start (worktree gone, bash missing) will not start next time either.
      unrecoverable: outcome.kind === 'crashed',
    };
  }

  const exitCode = outcome.exitCode;
  const rule = parseSuccessWhen(definition.successWhen);
  const text = `${outcome.stdout}\n${outcome.stderr}`;
  // Failing tests the runner named while the command exited as a pass: judged as failures, below.
  const failedNow = failingNow(failures, { exitCode, output: text, reports });
  const failing = failedNow.map((t) => t.name);
  const testsRan = () =>
    testsRanSinceBase({ ...options, ...request, commands: deps.commands, output: text, reports, failing });
  const namedFailing = rule.kind === 'exitCode' && exitCode === 0 ? failedNow.length : 0;
  const exitSaysPass = satisfies(rule, { stdout: outcome.stdout, exitCode });
  if (exitSaysPass && namedFailing === 0) {
    // The tests still ran as on the base; those red there that this branch fixed, for the reviewer.
    const ran = definition.baseline === undefined ? undefined : await testsRan();
    if (ran?.blocks) return testsNotRunResult(base, exitCode, ran, condition.params);
    return {
      ...base,
      exitCode,
      passed: true,
      summary: `\`${command}\` passed (${describeRule(rule)})${ran?.fixedLine ? `; ${ran.fixedLine}` : ''}`,
      params: { ...condition.params, ...(ran?.params ?? {}) },
      unrecoverable: false,
    };
  }
  const fatal =
    rule.kind === 'invalid'
      ? rule.problem
      : unrecoverableReason({ exitCode, stdout: outcome.stdout, stderr: outcome.stderr });
  const params = { ...condition.params, ...extractParams(definition.extractParams, { ...outcome, exitCode, reports }) };
  const judged =
    fatal === undefined && definition.baseline !== undefined
      ? await judgeAgainstBaseline({
          commands: deps.commands,
          ...(deps.signal ? { signal: deps.signal } : {}),
          worktreePath: options.worktreePath,
          bases: options.bases,
          command,
          timeoutMs: definition.timeoutMs ?? DEFAULT_VALIDATOR_TIMEOUT_MS,
          mode: definition.baseline,
          ...(options.issueText === undefined ? {} : { issueText: options.issueText }),
          failedNow,
          ...(options.claims === undefined ? {} : { claims: options.claims }),
        })
      : undefined;
  if (judged !== undefined && !judged.blocks) {
    const ran = await testsRan();
    if (ran?.blocks) return testsNotRunResult(base, exitCode, ran, params);
    return {
      ...base,
      exitCode,
      passed: true,
      summary: `\`${command}\` exited ${exitCode}${exitSaysPass ? ' naming failing tests' : ''}, accepted ${judged.line}`,
      params: { ...params, ...judged.params },
      unrecoverable: false,
    };
  }
  const expected = `(expected ${describeRule(rule)})`;
  const ended = fatal
    ? `exited ${exitCode}, unrecoverable: ${fatal}`
    : exitSaysPass
      ? `exited ${exitCode}, but the test runner names ${namedFailing} failing test(s): the exit status does not say whether the tests passed`
      : rule.kind === 'empty' && exitCode === 0
        ? `printed output ${expected}`
        : `exited ${exitCode} ${expected}`;
  return {
    ...base,
    ...(judged?.failurePattern === undefined ? failurePattern : { failurePattern: judged.failurePattern }),
    exitCode,
    passed: false,
    summary: `${commandSummary({ command, ended, stdout: outcome.stdout, stderr: outcome.stderr, failures })}${judged ? `\n${judged.line}` : ''}`,
    params: { ...params, ...(judged?.params ?? {}) },
    unrecoverable: fatal !== undefined,
  };
}
