// forceExit: after the abandoned-uploads test (an S3 upload cut mid-stream through the proxy) the worker keeps a core
// busy and never exits, though every test has passed and every store, client, proxy and server it opened is closed.
// Not yet found; until then jest ends the process instead of hanging the run.
module.exports = { ...require('../../jest.preset.js').jestConfig({ dir: __dirname }), forceExit: true };
