// What every k6 script here shares: its load shapes, chosen with `-e SHAPE=smoke|load|spike` (smoke by default).
//   smoke: 2 virtual users for 30 s — the script and the cluster work at all;
//   load:  ramp to `steady` users in 2 min, hold 5 min, ramp down — the sustained rate the thresholds hold at;
//   spike: to `peak` users in 20 s, hold 1 min, down — what a surge does (the thresholds still apply).

/** The `options` fields of the chosen shape; `steady` and `peak` are the script's own user counts. */
export function shape(name, { steady, peak }) {
  const shapes = {
    smoke: { vus: 2, duration: '30s' },
    load: {
      stages: [
        { duration: '2m', target: steady },
        { duration: '5m', target: steady },
        { duration: '1m', target: 0 },
      ],
    },
    spike: {
      stages: [
        { duration: '20s', target: peak },
        { duration: '1m', target: peak },
        { duration: '20s', target: 0 },
      ],
    },
  };
  const chosen = shapes[name || 'smoke'];
  if (!chosen) throw new Error(`SHAPE must be smoke, load or spike, not ${name}`);
  return chosen;
}
