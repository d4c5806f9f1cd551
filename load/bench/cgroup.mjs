// A CPU limit on every process and thread of Chromium (cgroup v1: `cpu` and `cpuset` controllers), for the
// benchmarks whose work runs in a Web Worker: CDP's Emulation.setCPUThrottlingRate slows the page's main thread only.
// BENCH_CGROUP=<cores>:<percent>: Chromium on `cores` CPUs (cpuset) with `percent` of one CPU's time in all
// (cpu.cfs_quota_us over a 100 ms period), shared by all its threads. `1:25` is one core 4× slower: the page's
// thread and the worker take turns on it. `2:50` is two cores with half a core in all: two busy threads each run
// 4× slower, one thread alone 2× slower. Needs root and a v1 hierarchy under /sys/fs/cgroup (as on this machine).
import { mkdirSync, readFileSync, rmdirSync, writeFileSync, chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = '/sys/fs/cgroup';
const GROUP = `whistle-bench-${process.pid}`;
const PERIOD_US = 100_000;

/** Parses BENCH_CGROUP; undefined when unset. */
export function cgroupProfile(value = process.env.BENCH_CGROUP) {
  if (!value) return undefined;
  const match = /^(\d+):(\d+)$/.exec(value);
  if (!match) throw new Error('BENCH_CGROUP is <cores>:<percent of one core>, e.g. 1:25');
  const [cores, percent] = [Number(match[1]), Number(match[2])];
  return { cores, percent, label: `cgroup: ${cores} core${cores > 1 ? 's' : ''}, ${percent} % of one in all` };
}

/**
 * Makes the cgroup and a wrapper that moves itself into it and runs `executable`: every process Chromium starts
 * (renderers, their workers, the network service) inherits it. Answers the wrapper's path and a `remove()`.
 */
export function limitedExecutable(profile, executable) {
  const cpusetRoot = path.join(ROOT, 'cpuset');
  const available = readFileSync(path.join(cpusetRoot, 'cpuset.effective_cpus'), 'utf8').trim();
  const last = Number(available.split(/[-,]/).at(-1));
  if (profile.cores > last + 1) throw new Error(`Only CPUs ${available} here`);
  const cpus = profile.cores === 1 ? String(last) : `${last + 1 - profile.cores}-${last}`;
  const cpu = path.join(ROOT, 'cpu', GROUP);
  const cpuset = path.join(cpusetRoot, GROUP);
  mkdirSync(cpu);
  mkdirSync(cpuset);
  writeFileSync(path.join(cpu, 'cpu.cfs_period_us'), String(PERIOD_US));
  writeFileSync(path.join(cpu, 'cpu.cfs_quota_us'), String((PERIOD_US * profile.percent) / 100));
  writeFileSync(path.join(cpuset, 'cpuset.cpus'), cpus);
  writeFileSync(path.join(cpuset, 'cpuset.mems'), readFileSync(path.join(cpusetRoot, 'cpuset.mems'), 'utf8').trim());
  const wrapper = path.join(mkdtempSync(path.join(tmpdir(), 'whistle-bench-')), 'chromium');
  writeFileSync(
    wrapper,
    `#!/bin/sh\necho $$ > ${cpu}/cgroup.procs\necho $$ > ${cpuset}/cgroup.procs\nexec ${executable} "$@"\n`,
  );
  chmodSync(wrapper, 0o755);
  return {
    wrapper,
    cpus,
    /** Once Chromium has exited (an empty group only can be removed). */
    remove() {
      for (const group of [cpu, cpuset]) rmdirSync(group);
    },
  };
}
