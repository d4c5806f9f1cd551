// Ambient types for this package's type-check and the repository-wide one: files webpack handles
// (CSS, SVG) and the jest-dom matchers.
/// <reference path="../../tools/webpack/assets.d.ts" />
/// <reference types="@testing-library/jest-dom" />

/** hash-wasm's Argon2-only build (UMD), which the proof-of-work worker bundles; the same function as its ES build's. */
declare module 'hash-wasm/dist/argon2.umd.min.js' {
  export const argon2id: typeof import('hash-wasm').argon2id;
}
