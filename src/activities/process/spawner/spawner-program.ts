/**
 * The program of the spawner helper process (see process-spawner.ts), run as
 * `node -e SPAWNER_PROGRAM`: plain CommonJS with no imports of ours, so the same text
 * runs whether the worker was started from `src/` (tsx) or from `dist/`, and nothing of
 * the worker (its NODE_OPTIONS, loaders, heap) is inherited.
 *
 * Protocol over the IPC channel, one message each way per process:
 *   request  { id, file, args, cwd, env, input?, maxBytes }
 *   reply    { id, exitCode, signal, stdout, stderr, truncated } | { id, error }
 * It exits when the channel closes (the worker ended, however it ended).
 */
export const SPAWNER_PROGRAM = String.raw`
'use strict';
const { spawn } = require('node:child_process');
process.on('disconnect', () => process.exit(0));
process.on('message', (req) => {
  let sent = false;
  const reply = (body) => {
    if (sent) return;
    sent = true;
    try { process.send(Object.assign({ id: req.id }, body)); } catch (_) { /* the worker is gone */ }
  };
  let child;
  try {
    child = spawn(req.file, req.args, {
      cwd: req.cwd,
      env: req.env,
      stdio: [req.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
  } catch (err) {
    reply({ error: String(err && err.message || err) });
    return;
  }
  const collect = (stream) => {
    const chunks = [];
    let size = 0;
    let truncated = false;
    stream.on('data', (chunk) => {
      if (size >= req.maxBytes) { truncated = true; return; }
      chunks.push(chunk);
      size += chunk.length;
    });
    return () => ({ text: Buffer.concat(chunks).subarray(0, req.maxBytes).toString('utf8'), truncated: truncated || size > req.maxBytes });
  };
  const out = collect(child.stdout);
  const err = collect(child.stderr);
  child.on('error', (e) => reply({ error: String(e && e.message || e) }));
  child.on('close', (code, signal) => {
    const o = out();
    const e = err();
    reply({ exitCode: code, signal, stdout: o.text, stderr: e.text, truncated: o.truncated || e.truncated });
  });
  if (req.input !== undefined) {
    child.stdin.on('error', () => { /* the process exited without reading its input */ });
    child.stdin.end(req.input);
  }
});
`;
