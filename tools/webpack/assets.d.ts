// Files webpack turns into URLs (asset/resource) or extracts (CSS).
declare module '*.svg' {
  const url: string;
  export default url;
}

// Extracted into .css files by mini-css-extract-plugin.
declare module '*.css';
