/**
 * The LabelCatalog of the local issue store: `<repo>/.agent/issues/labels.json`, beside
 * the issues, as `{ "<name>": { "color": "…", "description": "…" } }`. Writes replace
 * the file atomically. As with the issue files (issue-state-location.ts), a labels file
 * the user committed is never edited: writes go to a copy under the git dir, which
 * reads prefer from then on.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { AgentError } from '../../contracts/errors.js';
import { readOptional } from '../../definition/load/read-optional.js';
import { FailureType } from '../../contracts/failures.js';
import { LOCAL_ISSUES_DIR } from '../issues/local-issue-store.js';
import { STATE_DIR } from '../issues/issue-state-location.js';
import { git } from '../workspace/git/git.js';
import type { CatalogLabel, LabelCatalog } from './label-catalog.js';

export const LOCAL_LABELS_FILE = join(LOCAL_ISSUES_DIR, 'labels.json');

type LabelsFile = Record<string, { color: string; description: string }>;

export function createLocalLabelCatalog(repoPath: string): LabelCatalog {
  const inTree = join(repoPath, LOCAL_LABELS_FILE);

  async function read(): Promise<{ labels: LabelsFile; writePath: string }> {
    const where = await locate(repoPath, inTree);
    const text = (await readIfExists(where.copy)) ?? (await readIfExists(inTree));
    return { labels: text === undefined ? {} : parse(text, where.copy ?? inTree), writePath: where.copy ?? inTree };
  }

  async function change(label: CatalogLabel, mustExist: boolean): Promise<void> {
    const { labels, writePath } = await read();
    if (mustExist !== label.name in labels) {
      throw new AgentError(
        FailureType.ConfigInvalid,
        `label '${label.name}' ${mustExist ? 'does not exist' : 'already exists'} in ${writePath}`,
        { where: writePath },
      );
    }
    labels[label.name] = { color: label.color, description: label.description };
    await mkdir(dirname(writePath), { recursive: true });
    const temp = `${writePath}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temp, `${JSON.stringify(labels, null, 2)}\n`, 'utf8');
    await rename(temp, writePath);
  }

  return {
    where: inTree,
    async list() {
      const { labels } = await read();
      return Object.entries(labels).map(([name, l]) => ({
        name,
        color: l.color.toLowerCase(),
        description: l.description,
      }));
    },
    create: (label) => change(label, false),
    update: (label) => change(label, true),
  };
}

/** The copy under the git dir when git tracks the labels file; else no copy. */
async function locate(repoPath: string, inTree: string): Promise<{ copy?: string }> {
  const tracked = await git(repoPath, ['ls-files', '--error-unmatch', '--', inTree]);
  if (tracked.exitCode !== 0) return {};
  const dir = await git(repoPath, ['rev-parse', '--path-format=absolute', '--git-common-dir']);
  const common = dir.stdout.trim();
  return dir.exitCode === 0 && common !== '' ? { copy: join(common, STATE_DIR, 'labels.json') } : {};
}

async function readIfExists(path: string | undefined): Promise<string | undefined> {
  return path === undefined ? undefined : readOptional(path);
}

function parse(text: string, path: string): LabelsFile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new AgentError(FailureType.ConfigInvalid, `${path} is not JSON: ${(error as Error).message}`, {
      where: path,
      expected: '{ "<label>": { "color": "<6 hex>", "description": "<text>" } }',
    });
  }
  const labels: LabelsFile = {};
  for (const [name, l] of Object.entries((value ?? {}) as Record<string, Partial<LabelsFile[string]>>)) {
    labels[name] = { color: String(l?.color ?? ''), description: String(l?.description ?? '') };
  }
  return labels;
}
