import { closeSync, fsyncSync, openSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { NodeFS } from '@electric-sql/pglite/nodefs';

type EmscriptenOptions = Parameters<NodeFS['init']>[1];

/** The parts of Emscripten's NODEFS backend (inside PGlite's WASM module) that are patched below. */
interface EmscriptenNodeFs {
  stream_ops?: { fsync?: (stream: { nfd: number }) => number };
  tryFSOperation?: <T>(operation: () => T) => T;
}

/**
 * PGlite's Node filesystem, with PostgreSQL's fsync() reaching the disk.
 *
 * Emscripten's NODEFS (PGlite 0.5.x) has no `fsync` stream operation, so PostgreSQL's fsync() returns success
 * without any system call, and its fdatasync() is a no-op in Emscripten's syscall layer: even with PostgreSQL's
 * `fsync=on`, strace shows no fsync or fdatasync while committing or checkpointing (docs/security.md). This adds
 * the missing operation, calling the real fsync(2) on the file's host descriptor; an error reaches PostgreSQL as
 * its errno (through Emscripten's own error translation), so a failed fsync fails the commit or checkpoint as on
 * a server. Pair it with `wal_sync_method=fsync`: the default `fdatasync` would still be the no-op.
 */
export class DurableNodeFS extends NodeFS {
  override async init(pg: Parameters<NodeFS['init']>[0], options: EmscriptenOptions) {
    const { emscriptenOpts } = await super.init(pg, options);
    const preRun = [...(emscriptenOpts.preRun ?? []), (mod: EmscriptenOptions) => patchFsync(mod)];
    return { emscriptenOpts: { ...emscriptenOpts, preRun } };
  }
}

function patchFsync(mod: EmscriptenOptions): void {
  const nodefs = (mod as { NODEFS?: EmscriptenNodeFs }).NODEFS;
  const streamOps = nodefs?.stream_ops;
  // Refuse to start silently without durability when a PGlite upgrade changes what is patched here.
  if (!nodefs?.tryFSOperation || !streamOps)
    throw new Error(
      'PGlite has no Emscripten NODEFS stream operations to make fsync durable; check the PGlite version',
    );
  if (streamOps.fsync) return; // A PGlite whose NODEFS already syncs needs no patch.
  streamOps.fsync = (stream) => {
    nodefs.tryFSOperation?.(() => fsyncSync(stream.nfd));
    return 0;
  };
}

/**
 * fsync(2)s every file and folder under `dir`. PostgreSQL registers for its checkpoints only what it writes
 * itself with fsync on, so what PGlite copied in when it created the folder, or what a run with fsync off
 * wrote, could otherwise stay in the operating system's cache; PostgreSQL does the same after a crash.
 */
export function syncDirectoryTree(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const entryPath = path.join(dir, entry.name);
    if (entry.isDirectory()) syncDirectoryTree(entryPath);
    else if (entry.isFile()) syncPath(entryPath);
  }
  syncPath(dir);
}

function syncPath(target: string): void {
  let fd: number;
  try {
    fd = openSync(target, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // removed since it was listed: nothing to keep
    throw error;
  }
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
