#!/bin/sh
# The recurrent nets split batch rows among threads, whole: their outputs at 1, 2 and 3 threads are
# the same bits (own cases wide enough for several tasks: 16 batch rows, both directions).
set -eu
cli=$1 data=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for c in rnn_lstm_wide rnn_gru_wide rnn_rnn_wide; do
  set -- -i "x=$data/$c/test_data_set_0/input_0.pb" -i "h0=$data/$c/test_data_set_0/input_1.pb"
  if [ -f "$data/$c/test_data_set_0/input_2.pb" ]; then
    set -- "$@" -i "c0=$data/$c/test_data_set_0/input_2.pb"
  fi
  for n in 1 2 3; do
    # shellcheck disable=SC2086 # MINNX_WRAPPER (e.g. valgrind) is words by design
    ${MINNX_WRAPPER:-} "$cli" run "$data/$c/model.onnx" "$@" -o "$tmp/$c-$n" --format npy --threads $n >/dev/null
  done
  for n in 2 3; do
    for f in "$tmp/$c-1"/*.npy; do
      cmp -s "$f" "$tmp/$c-$n/${f##*/}" || { echo "FAIL $c: ${f##*/} at $n threads has other bits than at 1"; exit 1; }
    done
  done
done
echo "recurrent nets: the same bits at 1, 2 and 3 threads"
