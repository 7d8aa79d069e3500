#!/usr/bin/env node
// ONNX Runtime (npm onnxruntime-node, installed by tests/bench/ort/install.sh) timed on a model and its
// inputs in `minnx bench`'s layout, as a peer of minnx in tests/bench (never linked into minnx):
//
//   node time.js --ort ORTDIR DIR [--threads T] [--repeat N] [--warmup W] [--write-outputs DIR2] [--ort-run]
//
// DIR holds model.onnx and input_<i>.pb (or test_data_set_0/input_<i>.pb), as for `minnx bench DIR`.
// ORTDIR is the folder install.sh installed into (ORTDIR/node_modules/onnxruntime-node).
// The session: intraOpNumThreads T, interOpNumThreads 1, sequential execution, ORT's default graph
// optimizations, memory arena and spinning. The process first measures its peak RSS delta over
// creating the session and one run (the peak, VmHWM, reset through /proc/self/clear_refs just before;
// the binding and ORT's environment are loaded before that, and the inputs read), then binds its
// outputs to buffers of their own (so that ORT writes into them and nothing is copied per run), warms
// up W runs, the last of which sizes a batch of runs lasting at least 20 us (as `minnx bench` does for
// tiny graphs, so that the clock's cost does not count), and times N batches (fewer, at least 3, when
// one run takes more than a second: about 10 s of runs; the first line gives the count). Only ORT's run is timed:
// through the binding's synchronous run (the public API's run adds a turn of Node's event loop).
// Output, one key=value per line, the last `ns_per_run=<median>` as `minnx bench` prints it:
//   ort=1.30.0 threads=T runs=N batch=B min_ns=...
//   rss_before=<bytes> rss_peak=<bytes> rss_delta=<bytes>   (rss_delta=- when the peak cannot be reset)
//   ns_per_run=<median over the batches, per run>
// --write-outputs DIR2: also writes the first run's outputs as DIR2/output_<i>.pb (TensorProto,
// raw_data), for references computed by ORT (tests/models' npm models); --repeat 0 then times nothing.
// Exit status: 0; 2 on bad usage; 3 when ORT cannot be loaded; 4 when ORT refuses the model or a run
// (the first line of stderr says why: an operator or dtype it lacks).
'use strict';
const fs = require('fs');
const path = require('path');

function usage(msg) {
  process.stderr.write(`time.js: ${msg}\nusage: node time.js --ort ORTDIR DIR [--threads T] [--repeat N] ` +
                       '[--warmup W] [--write-outputs DIR2] [--ort-run]\n');
  process.exit(2);
}

const args = {threads: 1, repeat: 100, warmup: 10, ort: null, dir: null, writeOutputs: null, ortRun: false};
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  const val = () => {
    if (i + 1 >= process.argv.length) usage(`${a} needs a value`);
    return process.argv[++i];
  };
  const int = (lo) => {
    const s = val();
    const v = Number(s);
    if (!Number.isInteger(v) || v < lo) usage(`${a} ${s}: an integer >= ${lo}`);
    return v;
  };
  if (a === '--threads') args.threads = int(1);
  else if (a === '--repeat') args.repeat = int(0);
  else if (a === '--warmup') args.warmup = int(0);
  else if (a === '--ort') args.ort = val();
  else if (a === '--write-outputs') args.writeOutputs = val();
  else if (a === '--ort-run') args.ortRun = true;
  else if (a.startsWith('-')) usage(`unknown option ${a}`);
  else if (args.dir === null) args.dir = a;
  else usage(`one DIR only (${a})`);
}
if (!args.ort || !args.dir) usage('--ort ORTDIR and DIR are needed');

// ---- ONNX TensorProto: the fields a tensor file uses (onnx.proto: 1 dims, 2 data_type, 4 float_data,
// 5 int32_data, 7 int64_data, 8 name, 9 raw_data, 10 double_data, 11 uint64_data) ----------------------

// data_type -> [ORT's type name, bytes per element, typed array]
const DTYPES = {
  1: ['float32', 4, Float32Array], 2: ['uint8', 1, Uint8Array], 3: ['int8', 1, Int8Array],
  4: ['uint16', 2, Uint16Array], 5: ['int16', 2, Int16Array], 6: ['int32', 4, Int32Array],
  7: ['int64', 8, BigInt64Array], 9: ['bool', 1, Uint8Array], 10: ['float16', 2, Uint16Array],
  11: ['float64', 8, Float64Array], 12: ['uint32', 4, Uint32Array], 13: ['uint64', 8, BigUint64Array],
};
const DTYPE_CODE = Object.fromEntries(Object.entries(DTYPES).map(([code, [name]]) => [name, Number(code)]));

function parseTensor(buf, file) {
  let pos = 0;
  const varint = () => {  // as a BigInt: int64 dims and values
    let v = 0n, shift = 0n;
    for (;;) {
      if (pos >= buf.length) throw new Error(`${file}: truncated varint`);
      const b = buf[pos++];
      v |= BigInt(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
      shift += 7n;
    }
  };
  const t = {dims: [], dataType: 0, raw: null, packed: {}};
  while (pos < buf.length) {
    const key = Number(varint());
    const field = key >>> 3, wire = key & 7;
    if (wire === 0) {
      const v = varint();
      if (field === 1) t.dims.push(Number(BigInt.asIntN(64, v)));
      else if (field === 2) t.dataType = Number(v);
      else (t.packed[field] = t.packed[field] || []).push(v);  // unpacked repeated integers
    } else if (wire === 2) {
      const len = Number(varint());
      const bytes = buf.subarray(pos, pos + len);
      pos += len;
      if (field === 9) t.raw = bytes;
      else if (field === 1) {  // packed dims
        const save = [buf, pos];
        buf = bytes; pos = 0;
        while (pos < buf.length) t.dims.push(Number(BigInt.asIntN(64, varint())));
        [buf, pos] = save;
      } else if (field === 4 || field === 10 || field === 5 || field === 7 || field === 11) {
        (t.packed[field] = t.packed[field] || []).push(bytes);
      }  // name, doc_string, segment: not needed
    } else if (wire === 5) {
      if (field === 4) (t.packed.f32 = t.packed.f32 || []).push(buf.readFloatLE(pos));
      pos += 4;
    } else if (wire === 1) {
      if (field === 10) (t.packed.f64 = t.packed.f64 || []).push(buf.readDoubleLE(pos));
      pos += 8;
    } else {
      throw new Error(`${file}: wire type ${wire} in a TensorProto`);
    }
  }
  const info = DTYPES[t.dataType];
  if (!info) throw new Error(`${file}: data_type ${t.dataType} has no ORT Node tensor type (bfloat16, string...)`);
  const [type, size, Typed] = info;
  const count = t.dims.reduce((a, d) => a * d, 1);
  const data = new Typed(count);
  const bytes = new Uint8Array(data.buffer);
  if (t.raw) {
    if (t.raw.length !== count * size) throw new Error(`${file}: raw_data of ${t.raw.length} bytes for ${count} elements`);
    bytes.set(t.raw);
  } else {
    // typed fields: float_data (float), int32_data (int32 and the narrower types, float16's bits, bool),
    // int64_data, double_data, uint64_data (uint32, uint64)
    let values = [];
    const varints = (list) => {
      const out = [];
      for (const item of list || []) {
        if (typeof item === 'bigint') { out.push(item); continue; }
        const save = [buf, pos];
        buf = item; pos = 0;
        while (pos < buf.length) out.push(varint());
        [buf, pos] = save;
      }
      return out;
    };
    if (t.dataType === 1) {
      for (const item of t.packed[4] || []) for (let k = 0; k + 4 <= item.length; k += 4) values.push(item.readFloatLE(k));
      values = values.concat(t.packed.f32 || []);
    } else if (t.dataType === 11) {
      for (const item of t.packed[10] || []) for (let k = 0; k + 8 <= item.length; k += 8) values.push(item.readDoubleLE(k));
      values = values.concat(t.packed.f64 || []);
    } else if (t.dataType === 7) {
      values = varints(t.packed[7]).map((v) => BigInt.asIntN(64, v));
    } else if (t.dataType === 12 || t.dataType === 13) {
      values = varints(t.packed[11]).map((v) => (t.dataType === 13 ? BigInt.asUintN(64, v) : Number(v)));
    } else {
      values = varints(t.packed[5]).map((v) => Number(BigInt.asIntN(32, v)));
    }
    if (values.length !== count) throw new Error(`${file}: ${values.length} values for ${count} elements`);
    for (let k = 0; k < count; k++) data[k] = values[k];
  }
  return {type, dims: t.dims, data};
}

function encodeVarint(v, out) {
  v = BigInt.asUintN(64, BigInt(v));
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v) b |= 0x80;
    out.push(b);
  } while (v);
}

function tensorFile(name, tensor) {
  const head = [];
  for (const d of tensor.dims) { head.push(0x08); encodeVarint(d, head); }
  head.push(0x10); encodeVarint(DTYPE_CODE[tensor.type], head);
  const nameBytes = Buffer.from(name, 'utf8');
  head.push(0x42); encodeVarint(nameBytes.length, head);
  const data = Buffer.from(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength);
  const tail = [0x4a];
  encodeVarint(data.length, tail);
  return Buffer.concat([Buffer.from(head), nameBytes, Buffer.from(tail), data]);
}

// ---- the peak RSS (VmHWM), reset with clear_refs 5 (Linux 4.0 on) ------------------------------------

function status() {
  const s = fs.readFileSync('/proc/self/status', 'utf8');
  const kb = (key) => {
    const m = s.match(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm'));
    return m ? Number(m[1]) * 1024 : null;
  };
  return {rss: kb('VmRSS'), hwm: kb('VmHWM')};
}

function resetPeak() {
  try {
    fs.writeFileSync('/proc/self/clear_refs', '5');
  } catch (e) {
    return false;
  }
  const s = status();
  return s.hwm !== null && s.rss !== null && s.hwm <= s.rss + 64 * 1024;
}

// ---- the session --------------------------------------------------------------------------------------

function fail(code, msg) {
  process.stderr.write(`${String(msg).split('\n')[0]}\n`);
  process.exit(code);
}

const pkg = path.join(path.resolve(args.ort), 'node_modules', 'onnxruntime-node');
let ort, binding;
try {
  ort = require(pkg);
  binding = require(path.join(pkg, 'dist', 'binding'));
  binding.initOrt();
} catch (e) {
  fail(3, `ONNX Runtime cannot be loaded from ${pkg}: ${e.message}`);
}
const version = require(path.join(pkg, 'package.json')).version;

const dir = path.resolve(args.dir);
const modelPath = path.join(dir, 'model.onnx');
const dataDir = fs.existsSync(path.join(dir, 'input_0.pb')) ? dir : path.join(dir, 'test_data_set_0');

const options = {intraOpNumThreads: args.threads, interOpNumThreads: 1, executionMode: 'sequential'};
// --ort-run: ORT's profiler also times each run inside ORT (its `model_run` event, in microseconds),
// without the Node binding's conversion of the feeds and fetches, which costs tens of nanoseconds per
// element (measured: an Exp of [4096,4096] took 470-550 ms through the binding, 5-8 ms in `model_run`)
const os = require('os');
if (args.ortRun) {
  options.enableProfiling = true;
  options.profileFilePrefix = path.join(os.tmpdir(), `minnx-ort-${process.pid}`);
}
const feedsList = [];
for (let i = 0; fs.existsSync(path.join(dataDir, `input_${i}.pb`)); i++) {
  const file = path.join(dataDir, `input_${i}.pb`);
  let t;
  try {
    t = parseTensor(fs.readFileSync(file), file);
  } catch (e) {
    fail(4, e.message);
  }
  feedsList.push(new ort.Tensor(t.type, t.data, t.dims));
}

if (global.gc) global.gc();
const canReset = resetPeak();
const before = status();
let session, feeds, first;
try {
  session = new binding.binding.InferenceSession();
  session.loadModel(modelPath, options);
  const names = session.inputMetadata.map((m) => m.name);
  if (names.length !== feedsList.length) {
    fail(4, `${modelPath}: ${names.length} inputs, ${feedsList.length} input_<i>.pb files in ${dataDir}`);
  }
  feeds = Object.fromEntries(names.map((n, i) => [n, feedsList[i]]));
  first = session.run(feeds, Object.fromEntries(session.outputMetadata.map((m) => [m.name, null])), {});
} catch (e) {
  fail(4, `ONNX Runtime ${version}: ${e.message}`);
}
const after = status();
const rssDelta = canReset ? after.hwm - before.rss : null;

const outputNames = session.outputMetadata.map((m) => m.name);
if (args.writeOutputs) {
  fs.mkdirSync(args.writeOutputs, {recursive: true});
  outputNames.forEach((n, i) => {
    fs.writeFileSync(path.join(args.writeOutputs, `output_${i}.pb`), tensorFile(n, first[n]));
  });
}

// the outputs bound to buffers of their own, of the first run's types and shapes
const fetches = {};
for (const n of outputNames) {
  const t = first[n];
  const Typed = DTYPES[DTYPE_CODE[t.type]][2];
  fetches[n] = new ort.Tensor(t.type, new Typed(t.data.length), t.dims);
}
const run = () => session.run(feeds, fetches, {});

let batch = 1;
const times = [];
try {
  if (args.repeat > 0) {
    for (let i = 0; i <= args.warmup; i++) {
      const t0 = process.hrtime.bigint();
      run();
      const one = Number(process.hrtime.bigint() - t0);
      batch = one >= 20000 ? 1 : Math.floor(20000 / Math.max(one, 1));
      // a run of seconds (an op ORT runs slowly): at most about 10 s of timed runs, and at least 3
      if (one > 1e9) {
        args.repeat = Math.min(args.repeat, Math.max(3, Math.floor(10e9 / one)) | 1);
        break;
      }
    }
    for (let i = 0; i < args.repeat; i++) {
      const t0 = process.hrtime.bigint();
      for (let b = 0; b < batch; b++) run();
      times.push(Number(process.hrtime.bigint() - t0));
    }
  }
} catch (e) {
  fail(4, `ONNX Runtime ${version}: ${e.message}`);
}
times.sort((a, b) => a - b);
const lines = [
  `ort=${version} threads=${args.threads} runs=${args.repeat} batch=${batch} ` +
      `min_ns=${times.length ? (times[0] / batch).toFixed(1) : '-'}`,
  `rss_before=${before.rss} rss_peak=${canReset ? after.hwm : '-'} rss_delta=${rssDelta === null ? '-' : rssDelta}`,
];
let runLine = null;
if (args.ortRun) {
  // the profile's model_run events: the first run, the warm-up runs, then the timed ones
  const file = session.endProfiling();
  try {
    const runs = JSON.parse(fs.readFileSync(file, 'utf8')).filter((e) => e.name === 'model_run').map((e) => e.dur);
    const timed = runs.slice(runs.length - args.repeat * batch).sort((a, b) => a - b);
    if (args.repeat > 0 && timed.length) runLine = `ort_run_ns=${timed[timed.length >> 1] * 1000}`;
  } finally {
    fs.rmSync(file, {force: true});
  }
}
if (runLine) lines.push(runLine);
if (times.length) lines.push(`ns_per_run=${Math.round(times[args.repeat >> 1] / batch)}`);
process.stdout.write(lines.join('\n') + '\n');
session.dispose();
