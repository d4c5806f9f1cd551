#!/usr/bin/env node
// On-demand browser benchmark (not a test): disguising a voice message in the discloser's browser (issue 26,
// "Budgets": a 2-minute recording ≤ 3 s on Lighthouse's mobile CPU profile, progress shown, page responsive). In
// Chromium, the recorder's own code (packages/ui/src/report/voice/*.ts, compiled here by swc, unchanged): the
// recording decoded to 16 kHz mono by `decodeRecording` (an OfflineAudioContext), then `disguiseVoiceInSteps` as the
// recorder runs it (30 ms slices, progress after each), then `encodeWav`. The recording is made in the page: a
// voice-like tone (a 180 Hz buzz with harmonics, rising and falling like syllables) as a 48 kHz WAV, which stands
// for the browser's Opus recording (its decoding costs a little more; the disguise, the bulk, is the same).
//
// BENCH_WHERE: worker (as the recorder runs it: `disguiseInWorker` with the recorder's worker, voice-disguise.worker.ts,
// which disguises and encodes the WAV off the page's thread) or page (the disguise in slices on the page's own thread,
// as before the worker, for comparison).
// Measured per length (BENCH_MINUTES: 1,2,10) and strength (BENCH_STRENGTHS: medium,light), the decode, the
// disguise and the WAV encoding, the longest main-thread task begun in each (PerformanceObserver 'longtask': the page
// stays responsive when they are short) and the number of progress updates. CPU profiles (CDP Emulation.setCPUThrottlingRate):
// BENCH_CPU_RATES (1,4: a laptop, Lighthouse's mobile CPU). BENCH_RUNS (3) runs each after one unmeasured warm-up.
import { createServer } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformFileSync } from '@swc/core';
import { chromium } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const RUNS = Number(process.env.BENCH_RUNS || 3);
const RATES = (process.env.BENCH_CPU_RATES || '1,4').split(',').map(Number);
const MINUTES = (process.env.BENCH_MINUTES || '1,2,10').split(',').map(Number);
const STRENGTHS = (process.env.BENCH_STRENGTHS || 'medium,light').split(',');
const WHERE = process.env.BENCH_WHERE || 'worker';
if (!['worker', 'page'].includes(WHERE)) throw new Error(`BENCH_WHERE: worker or page, not ${WHERE}`);

const compile = (file) =>
  transformFileSync(join(root, 'packages/ui/src/report/voice', file), {
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'es6' },
  }).code;

const files = {
  '/voice-disguise': compile('voice-disguise.ts'),
  '/wav': compile('wav.ts'),
  '/recording': compile('recording.ts'),
  '/voice-disguise-job': compile('voice-disguise-job.ts'),
  '/voice-disguise.worker': compile('voice-disguise.worker.ts'),
  '/': `<!doctype html><meta charset="utf-8"><title>voice</title><script type="module">
    window.longTasks = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.longTasks.push(e); })
      .observe({ type: 'longtask', buffered: true });
    const { disguiseVoiceInSteps, VOICE_SAMPLE_RATE } = await import('/voice-disguise');
    const { encodeWav } = await import('/wav');
    const { decodeRecording } = await import('/recording');
    const { disguiseInWorker } = await import('/voice-disguise-job');
    window.makeRecording = (minutes) => {
      const rate = 48000;
      const samples = new Float32Array(minutes * 60 * rate);
      for (let n = 0; n < samples.length; n++) {
        const t = n / rate;
        let value = 0;
        for (let h = 1; h <= 10; h++) value += Math.sin(2 * Math.PI * 180 * h * t) / h;
        samples[n] = 0.25 * value * (0.55 + 0.45 * Math.sin(2 * Math.PI * 4 * t));
      }
      window.recording = new Blob([encodeWav(samples, rate)], { type: 'audio/wav' });
      return window.recording.size;
    };
    window.run = async (strength) => {
      window.longTasks.length = 0;
      const started = performance.now();
      const samples = await decodeRecording(window.recording);
      const decoded = performance.now();
      let updates = 0;
      let wav, disguisedAt;
      if (${JSON.stringify(WHERE)} === 'worker') {
        // Disguise and WAV in the worker: the page only waits (the WAV column is 0).
        const worker = new Worker('/voice-disguise.worker', { type: 'module' });
        wav = await disguiseInWorker(worker, samples, strength, { onProgress: () => updates++ });
        disguisedAt = performance.now();
      } else {
        const disguised = await disguiseVoiceInSteps(samples, strength, { onProgress: () => updates++ });
        disguisedAt = performance.now();
        wav = encodeWav(disguised, VOICE_SAMPLE_RATE);
      }
      const done = performance.now();
      await new Promise((resolve) => setTimeout(resolve, 50));
      // Each long task counted in the phase it began in.
      const longest = (from, to) =>
        Math.max(0, ...window.longTasks.filter((t) => t.startTime >= from && t.startTime < to).map((t) => t.duration));
      return {
        decode: decoded - started, disguise: disguisedAt - decoded, encode: done - disguisedAt, total: done - started,
        decodeTask: longest(started, decoded), disguiseTask: longest(decoded, disguisedAt),
        encodeTask: longest(disguisedAt, done + 1), updates, seconds: samples.length / VOICE_SAMPLE_RATE,
        wavBytes: wav.length,
      };
    };
    window.ready = true;
  </script>`,
};
const server = createServer((req, res) => {
  const body = files[req.url];
  if (body === undefined) return res.writeHead(404).end();
  res.writeHead(200, { 'content-type': req.url === '/' ? 'text/html' : 'text/javascript' });
  res.end(body);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium' });
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value) => `${Math.round(value)} ms`;
const rows = [];
try {
  for (const minutes of MINUTES)
    for (const rate of RATES) {
      const page = await browser.newPage();
      const cdp = await page.context().newCDPSession(page);
      await page.goto(origin);
      await page.waitForFunction(() => window.ready);
      await page.evaluate((m) => window.makeRecording(m), minutes);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate });
      for (const strength of STRENGTHS) {
        const run = () => page.evaluate((s) => window.run(s), strength);
        await run();
        const runs = [];
        for (let index = 0; index < RUNS; index += 1) runs.push(await run());
        for (const result of runs)
          if (Math.abs(result.seconds - minutes * 60) > 0.1) throw new Error(`Decoded ${result.seconds} s`);
        rows.push({
          length: `${minutes} min`,
          cpu: `${rate}×`,
          strength,
          'decode median': ms(median(runs.map((r) => r.decode))),
          'disguise median': ms(median(runs.map((r) => r.disguise))),
          'wav median': ms(median(runs.map((r) => r.encode))),
          'total median': ms(median(runs.map((r) => r.total))),
          'total max': ms(Math.max(...runs.map((r) => r.total))),
          'longest task: decode': ms(Math.max(...runs.map((r) => r.decodeTask))),
          disguise: ms(Math.max(...runs.map((r) => r.disguiseTask))),
          wav: ms(Math.max(...runs.map((r) => r.encodeTask))),
          'progress updates': runs[0].updates,
          'wav size': `${(runs[0].wavBytes / 1e6).toFixed(2)} MB`,
        });
      }
      await page.close();
    }
  console.table(rows);
  console.log(
    `${new Date().toISOString()} · ${cpus().length} × ${cpus()[0]?.model} · load average ${loadavg()
      .map((value) => value.toFixed(2))
      .join(
        ' ',
      )} · Chromium ${browser.version()} · ${RUNS} runs per row · disguise on the ${WHERE === 'worker' ? 'worker' : 'page'}`,
  );
} finally {
  await browser.close();
  server.close();
}
