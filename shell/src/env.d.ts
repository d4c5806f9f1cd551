// Ambient types for this package's type-check and the repository-wide one: files webpack handles
// (CSS, SVG) and the jest-dom matchers.
/// <reference path="../../tools/webpack/assets.d.ts" />
/// <reference path="../../tools/webpack/hash-wasm-argon2.d.ts" />
/// <reference types="@testing-library/jest-dom" />
