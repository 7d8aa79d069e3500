#!/usr/bin/env node
// The reference of examples/wakeword.c: openWakeWord's pipeline (audio -> melspectrogram -> embedding ->
// head) run by ONNX Runtime (npm onnxruntime-node, installed by tests/bench/ort/install.sh; a measuring
// peer, never linked into minnx), with the same chunking, context and transform as the C example, and
// the same lines out:
//
//   node wakeword_ort.js --ort ORTDIR --window W MEL.onnx EMBEDDING.onnx HEAD.onnx AUDIO.raw
//
// W: the head's window of embeddings (its input is [1, W, 96]; the C example reads W from the model).
// AUDIO.raw: 16 kHz mono int16 little-endian samples (tests/models/wakeword.py writes it with the WAV
// the C example reads). Exit status: 0; 2 on bad usage; 3 when ORT cannot be loaded.
'use strict';
const fs = require('fs');
const path = require('path');

const CHUNK = 1280, CONTEXT = 480, BANDS = 32, FRAMES = 76, FEATURES = 96;

async function main() {
  const argv = process.argv.slice(2);
  const opt = {};
  const files = [];
  for (let i = 0; i < argv.length; i++) {
    if ((argv[i] === '--ort' || argv[i] === '--window') && i + 1 < argv.length) opt[argv[i]] = argv[++i];
    else files.push(argv[i]);
  }
  const ortDir = opt['--ort'], window = Number(opt['--window']);
  if (!ortDir || !(Number.isInteger(window) && window >= 1)) {
    process.stderr.write('usage: node wakeword_ort.js --ort ORTDIR --window W MEL.onnx EMBEDDING.onnx HEAD.onnx AUDIO.raw\n');
    process.exit(2);
  }
  if (files.length !== 4) {
    process.stderr.write('wakeword_ort.js: four files: MEL EMBEDDING HEAD AUDIO\n');
    process.exit(2);
  }
  let ort;
  try {
    ort = require(path.join(ortDir, 'node_modules', 'onnxruntime-node'));
  } catch (e) {
    process.stderr.write(`wakeword_ort.js: cannot load ONNX Runtime from ${ortDir}: ${e.message}\n`);
    process.exit(3);
  }
  const options = {intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential'};
  const [mel, emb, head] = await Promise.all(files.slice(0, 3).map((f) => ort.InferenceSession.create(f, options)));
  const raw = fs.readFileSync(files[3]);
  const n = Math.floor(raw.length / 2);
  const audio = new Float32Array(n);
  for (let i = 0; i < n; i++) audio[i] = raw.readInt16LE(2 * i);

  const frames = new Float32Array(FRAMES * BANDS), feats = new Float32Array(window * FEATURES);
  let haveFrames = 0, haveFeats = 0, best = -1, bestT = 0;
  const out = [];
  for (let c = 0; (c + 1) * CHUNK <= n; c++) {
    const chunk = new Float32Array(CONTEXT + CHUNK);
    for (let i = 0; i < CONTEXT + CHUNK; i++) {
      const s = c * CHUNK - CONTEXT + i;
      chunk[i] = s < 0 ? 0 : audio[s];
    }
    const m = (await mel.run({[mel.inputNames[0]]: new ort.Tensor('float32', chunk, [1, CONTEXT + CHUNK])}))[mel.outputNames[0]].data;
    const k = m.length / BANDS;
    frames.copyWithin(0, k * BANDS);
    for (let i = 0; i < m.length; i++) frames[(FRAMES - k) * BANDS + i] = Math.fround(Math.fround(m[i] / 10) + 2);
    haveFrames += k;
    if (haveFrames < FRAMES) continue;
    const e = (await emb.run({[emb.inputNames[0]]: new ort.Tensor('float32', frames.slice(), [1, FRAMES, BANDS, 1])}))[emb.outputNames[0]].data;
    feats.copyWithin(0, FEATURES);
    feats.set(e.subarray(0, FEATURES), (window - 1) * FEATURES);
    if (++haveFeats < window) continue;
    const h = (await head.run({[head.inputNames[0]]: new ort.Tensor('float32', feats.slice(), [1, window, FEATURES])}))[head.outputNames[0]].data;
    const t = (c + 1) * CHUNK / 16000;
    out.push(`chunk ${c} t=${t.toFixed(2)} score=${h[0]}`);
    if (h[0] > best) { best = h[0]; bestT = t; }
  }
  out.push(best >= 0 ? `max score ${best} at t=${bestT.toFixed(2)}` : 'no score');
  process.stdout.write(out.join('\n') + '\n');
}

main().catch((e) => {
  process.stderr.write(`wakeword_ort.js: ${e.message}\n`);
  process.exit(4);
});
