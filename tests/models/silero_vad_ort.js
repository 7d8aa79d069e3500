#!/usr/bin/env node
// The reference of examples/silero_vad.c: Silero VAD (v5, or the legacy v4) run by ONNX Runtime (npm
// onnxruntime-node, installed by tests/bench/ort/install.sh; a measuring peer, never linked into minnx)
// over the same 512-sample chunks with the same state carried from call to call, printing the same
// lines:
//
//   node silero_vad_ort.js --ort ORTDIR MODEL.onnx AUDIO.raw [--time]
//
// AUDIO.raw: 16 kHz mono int16 little-endian samples, each given as v / 32768. Exit status: 0; 2 on bad
// usage; 3 when ORT cannot be loaded. --time adds the C example's `run_ns=... audio_s=... rtf=...` line:
// the wall time of the calls (making the tensors, running, copying the state) over the audio's duration.
'use strict';
const fs = require('fs');
const path = require('path');

const CHUNK = 512, RATE = 16000;

async function main() {
  const argv = process.argv.slice(2);
  let ortDir = null, timed = false;
  const files = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--ort' && i + 1 < argv.length) ortDir = argv[++i];
    else if (argv[i] === '--time') timed = true;
    else files.push(argv[i]);
  }
  if (!ortDir || files.length !== 2) {
    process.stderr.write('usage: node silero_vad_ort.js --ort ORTDIR MODEL.onnx AUDIO.raw\n');
    process.exit(2);
  }
  let ort;
  try {
    ort = require(path.join(ortDir, 'node_modules', 'onnxruntime-node'));
  } catch (e) {
    process.stderr.write(`silero_vad_ort.js: cannot load ONNX Runtime from ${ortDir}: ${e.message}\n`);
    process.exit(3);
  }
  const session = await ort.InferenceSession.create(files[0],
      {intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential'});
  // v5 carries `state` [2, 1, 128] (out: stateN); v4 `h` and `c` [2, 1, 64] (out: hn, cn)
  const v5 = session.inputNames.includes('state');
  const carried = v5 ? [['state', 'stateN', 128]] : [['h', 'hn', 64], ['c', 'cn', 64]];
  const state = {};
  for (const [name, , width] of carried) state[name] = new Float32Array(2 * width);
  const raw = fs.readFileSync(files[1]);
  const n = Math.floor(raw.length / 2), chunks = Math.floor(n / CHUNK);
  const sr = new ort.Tensor('int64', BigInt64Array.from([BigInt(RATE)]), []);
  const lines = [];
  let speech = 0, spent = 0n;
  for (let k = 0; k < chunks; k++) {
    const x = new Float32Array(CHUNK);
    for (let i = 0; i < CHUNK; i++) x[i] = raw.readInt16LE(2 * (k * CHUNK + i)) / 32768;
    const start = process.hrtime.bigint();
    const feeds = {input: new ort.Tensor('float32', x, [1, CHUNK]), sr};
    for (const [name, , width] of carried) feeds[name] = new ort.Tensor('float32', state[name], [2, 1, width]);
    const out = await session.run(feeds);
    for (const [name, outName] of carried) state[name] = Float32Array.from(out[outName].data);
    const p = out.output.data[0];
    spent += process.hrtime.bigint() - start;
    if (p >= 0.5) speech++;
    lines.push(`chunk ${k} t=${((k + 1) * CHUNK / RATE).toFixed(3)} prob=${p.toPrecision(9)}`);
  }
  lines.push(`speech chunks ${speech} of ${chunks} (prob >= 0.5)`);
  if (timed) {
    const seconds = chunks * CHUNK / RATE;
    lines.push(`run_ns=${spent} audio_s=${seconds.toFixed(3)} rtf=${(seconds > 0 ? Number(spent) / 1e9 / seconds : 0).toFixed(6)}`);
  }
  process.stdout.write(lines.join('\n') + '\n');
}

main().catch((e) => {
  process.stderr.write(`silero_vad_ort.js: ${e.stack || e}\n`);
  process.exit(1);
});
