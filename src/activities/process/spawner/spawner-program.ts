/**
 * The program of the spawner helper process (see process-spawner.ts), run as
 * `node -e SPAWNER_PROGRAM`: plain CommonJS with no imports of ours, so the same text
 * runs whether the worker was started from `src/` (tsx) or from `dist/`, and nothing of
 * the worker (its NODE_OPTIONS, loaders, heap) is inherited.
 *
 * Protocol over the IPC channel:
 *   request  { id, file, args, cwd, env, input?, maxChars, capMode: 'head' | 'headTail',
 *              all?, group?, timeoutMs?, killGraceMs?, killOnOverflow?, killGroupAfterExit? }
 *   cancel   { cancel: id }   (ends the process group: SIGTERM, SIGKILL after the grace)
 *   reply    { id, exitCode, signal, stdout, stderr, all?, truncated, timedOut, canceled }
 *            | { id, error }
 * With `group` the program leads its own process group, and every kill (timeout, cancel,
 * overflow) goes to the whole group: a grandchild holding the pipes open would otherwise
 * keep the call waiting. The helper exits when the channel closes (its parent is gone).
 * Its output capper is the worker's own (process/capped-text.ts), embedded as source.
 */
import { createOutputCap } from '../capped-text.js';

export const SPAWNER_PROGRAM = String.raw`
'use strict';
const { spawn } = require('node:child_process');
const running = new Map();
process.on('disconnect', () => process.exit(0));

// As an expression: a bundler may have renamed the declaration (createOutputCap2).
const createOutputCap = (${createOutputCap.toString()});

function capped(limit, mode) {
  return mode === 'head' ? createOutputCap(limit, 1, () => '') : createOutputCap(limit, 0.5, (omitted) => '\n[… ' + omitted + ' characters omitted …]\n');
}

function kill(entry, signal) {
  const pid = entry.child.pid;
  if (pid === undefined) return;
  try {
    if (entry.group) process.kill(-pid, signal);
    else entry.child.kill(signal);
  } catch (_) { /* already gone */ }
}

function end(entry) {
  if (entry.ending) return;
  entry.ending = true;
  kill(entry, 'SIGTERM');
  entry.force = setTimeout(() => kill(entry, 'SIGKILL'), entry.killGraceMs);
}

process.on('message', (req) => {
  if (req.cancel !== undefined) {
    const entry = running.get(req.cancel);
    if (entry) { entry.canceled = true; end(entry); }
    return;
  }
  let sent = false;
  const reply = (body) => {
    if (sent) return;
    sent = true;
    running.delete(req.id);
    try { process.send(Object.assign({ id: req.id }, body)); } catch (_) { /* the worker is gone */ }
  };
  let child;
  try {
    child = spawn(req.file, req.args, {
      cwd: req.cwd,
      env: req.env,
      stdio: [req.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      detached: req.group === true,
      windowsHide: true,
    });
  } catch (err) {
    reply({ error: String((err && err.message) || err) });
    return;
  }
  const entry = { child, group: req.group === true, killGraceMs: req.killGraceMs || 2000, canceled: false, timedOut: false, ending: false };
  running.set(req.id, entry);
  const out = capped(req.maxChars, req.capMode);
  const err = capped(req.maxChars, req.capMode);
  const all = req.all ? capped(req.maxChars, req.capMode) : undefined;
  const take = (sink) => (chunk) => {
    const fits = sink.append(chunk);
    const allFits = all ? all.append(chunk) : true;
    if ((!fits || !allFits) && req.killOnOverflow) { entry.overflow = true; kill(entry, 'SIGKILL'); }
  };
  child.stdout.setEncoding('utf8').on('data', take(out));
  child.stderr.setEncoding('utf8').on('data', take(err));
  const timer = req.timeoutMs ? setTimeout(() => { entry.timedOut = true; end(entry); }, req.timeoutMs) : undefined;
  child.on('error', (e) => {
    if (timer) clearTimeout(timer);
    reply({ error: String((e && e.message) || e) });
  });
  child.on('close', (code, signal) => {
    if (timer) clearTimeout(timer);
    if (entry.force) clearTimeout(entry.force);
    if (req.killGroupAfterExit) kill(entry, 'SIGKILL');
    reply({
      exitCode: code,
      signal,
      stdout: out.text(),
      stderr: err.text(),
      all: all ? all.text() : undefined,
      truncated: out.truncated() || err.truncated() || (all ? all.truncated() : false),
      timedOut: entry.timedOut,
      canceled: entry.canceled,
    });
  });
  if (req.input !== undefined) {
    child.stdin.on('error', () => { /* the process exited without reading its input */ });
    child.stdin.end(req.input);
  }
});
`;
