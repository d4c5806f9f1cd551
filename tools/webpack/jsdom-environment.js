// jsdom lacks the Fetch API and text encoding that React Router's data routers use (every
// navigation builds a Request): lend Node's own implementations to the test window. Node's Request (undici) takes
// only its own AbortSignal since Node 24, so the abort classes are lent too.
const JsdomEnvironment = require('jest-environment-jsdom').default;

const NODE_GLOBALS = [
  'Request',
  'Response',
  'Headers',
  'fetch',
  'TextEncoder',
  'TextDecoder',
  'ReadableStream',
  'structuredClone',
  'AbortController',
  'AbortSignal',
];

class FetchJsdomEnvironment extends JsdomEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of NODE_GLOBALS) this.global[name] = globalThis[name];
  }
}

module.exports = FetchJsdomEnvironment;
