// Types of compiled-test-tree.mjs (plain JavaScript: the runner starts it without a loader).
export declare const TEST_BUILD_DIR: string;
export declare function buildCompiledTestTree(root: string): Promise<string>;
export declare function removeCompiledTestTree(tree: string): void;
