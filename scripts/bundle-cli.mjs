#!/usr/bin/env node
// After `tsc -p tsconfig.build.json`: replaces the two entry points, dist/client.js (the
// `issue-agent` bin) and dist/worker.js, with esbuild bundles of themselves, their
// modules and their pure-JavaScript dependencies, split at every dynamic import into
// dist/chunks/ (a command still loads only what it uses). Node resolves, reads and
// compiles each module file on its own; our code and its pure-JS dependencies (~1 000
// modules) as ~80 files let a replacement worker resume a step ~0.25 s sooner (`npm run
// bench -- --only resume`), and every command start sooner.
//
// Left as packages: Temporal's (a native core bridge, and the worker bundles workflow
// code from its own files) and what they load themselves (gRPC, protobufjs).
//
// `import.meta.url` in a bundled module would name the bundle, not the module: every use
// is rewritten to the URL of the module's own file in dist/ (which tsc wrote and which
// stays), so paths found relative to a module (the project root, the workflow bundle,
// prompt templates) are the same as unbundled.
import { readFile, rm } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

// The dist/ to bundle in place: the argument (the package test bundles its own copy), else ours.
const dist = `${resolve(process.argv[2] ?? fileURLToPath(new URL('../dist/', import.meta.url)))}/`;
const entries = ['client.js', 'worker.js'];

// Each output file is either an entry (dist/) or a chunk (dist/chunks/): DIST is dist/'s URL.
const banner = [
  "import { createRequire as __bundleRequire } from 'node:module';",
  'const require = __bundleRequire(import.meta.url);',
  "const __DIST_URL = new URL(/\\/chunks\\/[^/]+$/.test(import.meta.url) ? '../' : './', import.meta.url);",
].join('\n');

const moduleUrls = {
  name: 'module-urls',
  setup(b) {
    b.onLoad({ filter: /\.js$/ }, async (args) => {
      if (!args.path.startsWith(dist)) return undefined; // a package's file: esbuild reads it
      const text = await readFile(args.path, 'utf8');
      const own = JSON.stringify(relative(dist, args.path).split('\\').join('/'));
      return { contents: text.replaceAll('import.meta.url', `new URL(${own}, __DIST_URL).href`), loader: 'js' };
    });
  },
};

// The entries must be tsc's output: a bundled entry imports chunks this run replaces.
for (const entry of entries) {
  const text = await readFile(`${dist}${entry}`, 'utf8').catch(() => undefined);
  if (text === undefined) {
    process.stderr.write(`bundle-cli: ${dist}${entry} not found; run \`npm run build\` (tsc writes it first)\n`);
    process.exit(1);
  }
  if (text.includes('__bundleRequire')) {
    process.stderr.write(`bundle-cli: ${dist}${entry} is already a bundle; run \`npm run build\` (tsc first)\n`);
    process.exit(1);
  }
}
// Chunks of an earlier build would otherwise stay (and be packed): their names carry hashes.
await rm(`${dist}chunks`, { recursive: true, force: true });
const result = await build({
  entryPoints: entries.map((e) => `${dist}${e}`),
  outdir: dist,
  entryNames: '[name]',
  chunkNames: 'chunks/[name]-[hash]',
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'bundle',
  external: ['@temporalio/*', '@grpc/*', 'protobufjs', 'protobufjs/*', 'long'],
  banner: { js: banner },
  plugins: [moduleUrls],
  logLevel: 'warning',
  metafile: true,
});
const outputs = Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.js'));
const inputs = Object.keys(result.metafile.inputs).length;
process.stdout.write(
  `cli bundle: ${entries.join(', ')} and ${outputs.length - entries.length} chunks from ${inputs} modules\n`,
);
