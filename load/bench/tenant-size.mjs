// How many cases case-seed.mjs clones for a benchmark's tenant. Set before case-seed.mjs is loaded: it reads
// BENCH_CASES then.

/** The real reports case-seed.mjs makes through the API and clones. */
export const TEMPLATES = 10;

/** A tenant of `total` cases in all: the templates, their clones and `made` more the benchmark makes itself. */
export function sizeTenant(total, made = 0) {
  process.env.BENCH_CASES = String(total - TEMPLATES - made);
}
