/**
 * A Maven project that ships its wrapper (`mvnw`, only-script, pinning Maven 3.9.9 from
 * Maven Central; generated in the test by maven-wrapper-plugin): setup runs `./mvnw`,
 * which downloads that Maven into the shared MAVEN_USER_HOME; in the sandbox, offline and
 * with that home read-only, the same wrapper finds it and the preflight names the
 * failing test. Skipped where `mvn` is not installed (it generates the wrapper).
 */
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { execa } from 'execa';
import { PreflightStatus } from '../../../src/contracts/preflight.js';
import { cacheLayout } from '../../../src/activities/environment/cache-layout.js';
import { detectCommands } from '../../../src/definition/repo-config/detect-commands.js';
import { useEnvironmentProject } from './environment-fixtures.js';
import { CALC_TEST, mavenPreflight, mavenProject, skipWithoutMaven as skip } from './maven-project.js';

const env = useEnvironmentProject(
  mavenProject({
    'src/main/java/demo/Calc.java':
      'package demo;\n\npublic class Calc {\n  public int add(int a, int b) { return a + b; }\n' +
      '  public int sub(int a, int b) { return b - a; }\n}\n',
    'src/test/java/demo/CalcTest.java': CALC_TEST,
  }),
  {
    lock: async (repo) => {
      if (skip !== false) return;
      // The wrapper plugin's own downloads go to a repository removed with the state dir.
      const local = path.join(process.env['ISSUE_AGENT_STATE_DIR'] ?? repo.dir, 'wrapper-plugin-m2');
      await execa(
        'mvn',
        [
          '-B',
          '-q',
          `-Dmaven.repo.local=${local}`,
          'org.apache.maven.plugins:maven-wrapper-plugin:3.3.2:wrapper',
          '-Dmaven=3.9.9',
        ],
        { cwd: repo.dir },
      );
    },
  },
);

test(
  './mvnw: its Maven fetched at setup into MAVEN_USER_HOME, found there offline in the sandbox',
  { skip },
  async () => {
    const wt = await env.project.worktree();
    const { commands } = await detectCommands(wt);
    assert.match(commands.test ?? '', /^\.\/mvnw -B -o /);
    const report = await env.prepare(wt);
    assert.deepEqual(
      report.steps.map((s) => [s.command.split(' ')[0], s.status]),
      [
        ['./mvnw', 'ran'],
        ['./mvnw', 'ran'],
      ],
    );
    const dists = path.join(cacheLayout(env.project.repo.dir).maven, 'wrapper', 'dists');
    assert.match((await readdir(dists)).join(), /apache-maven-3\.9\.9/);

    const preflight = await mavenPreflight(wt, commands.test ?? '');
    const [check] = preflight.checks;
    assert.equal(check?.status, PreflightStatus.Baseline, check?.summary);
    assert.deepEqual(check?.failedTests, ['demo.CalcTest#subtracts']);
  },
);
