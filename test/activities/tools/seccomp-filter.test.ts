/**
 * The seccomp filter's decisions, checked by running its BPF program here (a small
 * classic-BPF interpreter for the few opcodes a seccomp filter uses) on each
 * architecture's numbers: what is denied, what passes, clone by its flags, foreign ABIs.
 * The real kernel's answers are in seccomp-exec.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  archTable,
  CLONE_NAMESPACE_FLAGS,
  SeccompArch,
  seccompArchOf,
  seccompFilter,
} from '../../../src/activities/tools/seccomp-filter.js';

const ALLOW = 0x7fff0000;
const EPERM = 0x00050001;
const ENOSYS = 0x00050026;
const KILL = 0x80000000;

interface Call {
  readonly nr: number;
  readonly arch: number;
  readonly arg0?: number;
}

/** Runs a seccomp BPF program (ld abs, jeq, jge, jset, ret) on one system call. */
function decide(program: Buffer, call: Call): number {
  const data = Buffer.alloc(64);
  data.writeInt32LE(call.nr, 0);
  data.writeUInt32LE(call.arch, 4);
  data.writeBigUInt64LE(BigInt(call.arg0 ?? 0), 16);
  let acc = 0;
  for (let pc = 0; pc * 8 < program.length; pc++) {
    const code = program.readUInt16LE(pc * 8);
    const jt = program.readUInt8(pc * 8 + 2);
    const jf = program.readUInt8(pc * 8 + 3);
    const k = program.readUInt32LE(pc * 8 + 4);
    switch (code) {
      case 0x20:
        acc = data.readUInt32LE(k);
        break;
      case 0x15:
        pc += acc === k ? jt : jf;
        break;
      case 0x35:
        pc += acc >= k ? jt : jf;
        break;
      case 0x45:
        pc += (acc & k) !== 0 ? jt : jf;
        break;
      case 0x06:
        return k;
      default:
        assert.fail(`unexpected opcode ${code} at ${pc}`);
    }
  }
  return assert.fail('the program fell off its end');
}

const SIGCHLD = 17;
/** What pthread_create passes (CLONE_VM | FS | FILES | SIGHAND | THREAD | SYSVSEM | SETTLS | *TID). */
const THREAD_FLAGS = 0x3d0f00;
const CLONE_NEWUSER = 0x10000000;
const CLONE_NEWNS = 0x20000;
const CLONE_NEWNET = 0x40000000;

for (const arch of Object.values(SeccompArch)) {
  const table = archTable(arch);
  const program = seccompFilter(arch);
  const call = (nr: number, arg0?: number): number =>
    decide(program, { nr, arch: table.audit, ...(arg0 === undefined ? {} : { arg0 }) });

  test(`${arch}: every denied system call answers EPERM`, () => {
    assert.ok(program.length / 8 < 256, 'jump offsets are 8 bits');
    for (const [name, nr] of Object.entries(table.denied)) assert.equal(call(nr), EPERM, name);
    for (const name of ['unshare', 'setns', 'mount', 'umount2', 'pivot_root', 'chroot', 'keyctl', 'bpf']) {
      assert.ok(name in table.denied, `${name} is denied`);
    }
  });

  test(`${arch}: clone passes for forks and threads, not with a namespace flag; clone3 is ENOSYS`, () => {
    assert.equal(call(table.clone, SIGCHLD), ALLOW, 'fork');
    assert.equal(call(table.clone, THREAD_FLAGS), ALLOW, 'a thread');
    for (const flag of [CLONE_NEWUSER, CLONE_NEWNS, CLONE_NEWNET]) {
      assert.equal(call(table.clone, SIGCHLD | flag), EPERM, flag.toString(16));
    }
    assert.equal(CLONE_NAMESPACE_FLAGS & THREAD_FLAGS, 0);
    assert.equal(call(table.clone3), ENOSYS);
  });

  test(`${arch}: everything else passes; a foreign architecture is killed`, () => {
    const denied = new Set([...Object.values(table.denied), table.clone3]);
    for (let nr = 0; nr < 470; nr++) if (!denied.has(nr) && nr !== table.clone) assert.equal(call(nr), ALLOW, `${nr}`);
    const i386 = 0x40000003;
    assert.equal(decide(program, { nr: 20, arch: i386 }), KILL);
    const other = arch === SeccompArch.X64 ? archTable(SeccompArch.Arm64) : archTable(SeccompArch.X64);
    assert.equal(decide(program, { nr: 39, arch: other.audit }), KILL);
  });
}

test('x64: x32 system call numbers answer ENOSYS (x32 shares the x86_64 audit arch)', () => {
  const program = seccompFilter(SeccompArch.X64);
  const table = archTable(SeccompArch.X64);
  assert.equal(decide(program, { nr: 0x40000000 | 272, arch: table.audit }), ENOSYS, 'x32 unshare');
  assert.equal(decide(program, { nr: 0x40000000 | 39, arch: table.audit }), ENOSYS, 'x32 getpid');
});

test('the filter is known for x64 and arm64 only', () => {
  assert.equal(seccompArchOf('x64'), SeccompArch.X64);
  assert.equal(seccompArchOf('arm64'), SeccompArch.Arm64);
  assert.equal(seccompArchOf('ia32'), undefined);
  assert.equal(seccompArchOf('riscv64'), undefined);
});
