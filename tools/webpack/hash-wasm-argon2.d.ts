/**
 * hash-wasm's Argon2-only build (UMD), which the pages' Argon2 workers bundle whole (the proof of work's, the staff
 * password derivation's); the same function as its ES build's.
 */
declare module 'hash-wasm/dist/argon2.umd.min.js' {
  export const argon2id: typeof import('hash-wasm').argon2id;
}
