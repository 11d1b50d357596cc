/**
 * The LabelCatalog port: a repository's label definitions (name, colour, description),
 * wherever the issues live — GitHub's repository labels, or a labels file beside the
 * local issues. Label sync (sync-labels.ts) only talks to this port; factories build
 * the two implementations (github-label-catalog.ts, local-label-catalog.ts).
 */
import type { IssueSourceKind } from '../../contracts/run.js';

export interface CatalogLabel {
  readonly name: string;
  /** Six hex digits, lower case, no '#'. */
  readonly color: string;
  readonly description: string;
}

export interface LabelCatalog {
  /** Where the labels live, for reports: `owner/repo` or the labels file. */
  readonly where: string;
  list(): Promise<CatalogLabel[]>;
  /** Adds a label the catalog lacks. */
  create(label: CatalogLabel): Promise<void>;
  /** Sets the colour and description of an existing label. */
  update(label: CatalogLabel): Promise<void>;
}

export type LabelCatalogFactory = (kind: IssueSourceKind, repoPath: string) => LabelCatalog;
