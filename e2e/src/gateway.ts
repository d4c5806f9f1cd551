import http from 'node:http';

/**
 * The cluster's stand-in for the Ingress: forwards each request to the port `portOf` gives for its path (404 JSON
 * when none). An upstream that aborts mid-answer aborts the client's answer too, as ingress-nginx does, so a test
 * through it fails on a cut download instead of hanging.
 */
export function createGateway(portOf: (url: string) => number | undefined): http.Server {
  return http.createServer((req, res) => {
    const port = portOf(req.url ?? '/');
    if (!port) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Not Found' }));
      return;
    }
    const upstream = http.request(
      { host: '127.0.0.1', port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        // Answered before the whole body came (a 413): like ingress-nginx, the rest of the body is read and
        // dropped and the client is told the connection closes, so its next request never lands on a socket
        // that is about to go (an ECONNRESET in the test that follows).
        const early = !req.complete;
        if (early) {
          req.unpipe(upstream);
          req.resume();
        }
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, ...(early ? { connection: 'close' } : {}) });
        // A cut upstream answer ends without 'end': pipe() would leave the client waiting for the rest for ever.
        answer.on('aborted', () => res.destroy());
        answer.on('error', () => res.destroy());
        answer.pipe(res);
      },
    );
    // A service may answer before it has read the whole body (a 413) and close: like ingress-nginx, the
    // gateway forwards that answer rather than turning the broken upload into a 502.
    upstream.on('error', () => {
      req.resume();
      if (!res.headersSent)
        res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Bad Gateway' }));
      else if (!res.writableFinished) res.destroy();
    });
    req.pipe(upstream);
  });
}
