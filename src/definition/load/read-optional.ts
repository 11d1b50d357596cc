/**
 * The one read of a file that may be absent: its text, or undefined when nothing is
 * there. Any other failure (permissions, a directory where the file should be) is
 * thrown: an unreadable file is not a missing one.
 */
import { readFile } from 'node:fs/promises';

export interface ReadOptionalOptions {
  /**
   * Also count ENOTDIR (a parent of the path is a file) as missing: for paths built
   * from names a definition declares, where such a parent just means "not there".
   */
  readonly parentMayBeFile?: boolean;
}

/** True for the error of a read, listing or stat of a path that does not exist. */
export function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

/** The file's UTF-8 text, or undefined when it does not exist. */
export async function readOptional(path: string, options: ReadOptionalOptions = {}): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (isMissing(error)) return undefined;
    if (options.parentMayBeFile === true && (error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
}
