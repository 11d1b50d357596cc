/**
 * The Maven project of the environment tests (JUnit 5 from Maven Central, the compiler
 * and Surefire 3 pinned, `target/` ignored as real projects do), and the preflight run
 * on a worktree of it the way a run does: on a branch that records its base, the tests
 * command through the sandboxed command runner.
 */
import { execa } from 'execa';
import type { CompletionStepDefinition, ValidatorDefinition } from '../../../src/contracts/definition.js';
import type { PreflightReport } from '../../../src/contracts/preflight.js';
import { createSpawnerCommandRunner } from '../../../src/activities/process/spawner-command-runner.js';
import { runPreflight } from '../../../src/activities/preflight/run-preflight.js';

const hasMaven = await execa('mvn', ['-v'], { reject: false }).then(
  (r) => r.exitCode === 0,
  () => false,
);
/** `{ skip }` for tests that need Maven. */
export const skipWithoutMaven: string | false = hasMaven ? false : 'mvn is not installed';

const POM = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>demo</groupId>
  <artifactId>calc</artifactId>
  <version>1.0</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
    <dependency>
      <groupId>org.junit.jupiter</groupId>
      <artifactId>junit-jupiter</artifactId>
      <version>5.14.1</version>
      <scope>test</scope>
    </dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version></plugin>
      <plugin><artifactId>maven-surefire-plugin</artifactId><version>3.5.4</version></plugin>
    </plugins>
  </build>
</project>
`;

/**
 * The JVM of every mvn run in the project: the client compiler only and the serial
 * collector, as short builds on a small machine are best served (the C2 compiler's
 * threads cost a short Maven build more CPU than they save).
 */
const JVM_CONFIG = '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC\n';

/** `adds` passes; `subtracts` fails while `Calc.sub` adds (or does not compile while it is missing). */
export const CALC_TEST =
  'package demo;\n\nimport static org.junit.jupiter.api.Assertions.assertEquals;\nimport org.junit.jupiter.api.Test;\n\n' +
  'class CalcTest {\n  @Test void adds() { assertEquals(5, new Calc().add(2, 3)); }\n' +
  '  @Test void subtracts() { assertEquals(1, new Calc().sub(3, 2)); }\n}\n';

/** pom.xml and .gitignore with `sources` (worktree-relative path → text). */
export function mavenProject(sources: Record<string, string>): Record<string, string> {
  return { 'pom.xml': POM, '.gitignore': 'target/\n', '.mvn/jvm.config': JVM_CONFIG, ...sources };
}

const step: CompletionStepDefinition = {
  stepId: 'closure.issue',
  name: 'closure.issue',
  c2: 'retry',
  c3: 'issue',
  conditions: [{ validator: 'tests', params: {} }],
  onFail: { action: 'retry', maxAttempts: 3 },
};

/** The preflight of `command` as the `tests` validator (baseline: ignore) on a new branch of the worktree. */
export async function mavenPreflight(worktreePath: string, command: string): Promise<PreflightReport> {
  const branch = `agent/${worktreePath.split('/').pop() ?? 'wt'}`;
  await execa('git', ['switch', '--quiet', '-c', branch], { cwd: worktreePath });
  await execa('git', ['config', `branch.${branch}.agentBase`, 'main'], { cwd: worktreePath });
  const tests = {
    type: 'command',
    command,
    successWhen: 'exitCode:0',
    extractParams: {},
    baseline: 'ignore',
  } as ValidatorDefinition;
  return runPreflight(
    { commands: createSpawnerCommandRunner() },
    { worktreePath, completionSteps: [step], validators: { tests } },
  );
}
